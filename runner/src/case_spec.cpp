#include "ridgeline/runner/case_spec.hpp"

#include <fmt/format.h>

namespace ridgeline {

std::string CaseSpec::name() const {
  const std::string fp = fp_env == FpEnv::ieee ? "" : fmt::format("/fp={}", to_string(fp_env));
  const std::string cold =
      cache == CacheState::warm ? "" : fmt::format("/cache={}", to_string(cache));
  return fmt::format("{}/{}/{}/{}/pattern={}{}{}/threads={}", problem.op, backend,
                     to_string(problem.dtype), params_label(problem), problem.pattern, fp, cold,
                     threads);
}

}  // namespace ridgeline
