#include "ridgeline/core/fp_env.hpp"

namespace ridgeline {

std::string_view to_string(FpEnv env) {
  return env == FpEnv::ftz_daz ? "ftz_daz" : "ieee";
}

std::optional<FpEnv> parse_fp_env(std::string_view text) {
  if (text == "ieee") return FpEnv::ieee;
  if (text == "ftz_daz") return FpEnv::ftz_daz;
  return std::nullopt;
}

}  // namespace ridgeline
