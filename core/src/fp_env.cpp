#include "ridgeline/core/fp_env.hpp"

#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

constexpr Spelling<FpEnv> kFpEnvs[] = {
    {FpEnv::ieee, "ieee", {}},
    {FpEnv::ftz_daz, "ftz_daz", {}},
};
static_assert(spelled_in_order(kFpEnvs, FpEnv::ftz_daz));

}  // namespace

std::string_view to_string(FpEnv env) {
  return spelling_of(kFpEnvs, env).json;
}

std::optional<FpEnv> parse_fp_env(std::string_view text) {
  return value_of<FpEnv>(kFpEnvs, text);
}

}  // namespace ridgeline
