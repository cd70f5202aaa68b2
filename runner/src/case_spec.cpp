#include "ridgeline/runner/case_spec.hpp"

#include <fmt/format.h>

namespace ridgeline {

std::string CaseSpec::name() const {
  const std::string fp = fp_env == FpEnv::ieee ? "" : fmt::format("/fp={}", to_string(fp_env));
  const std::string cold =
      cache == CacheState::warm ? "" : fmt::format("/cache={}", to_string(cache));
  // An op without params (a caller's function, `callable`) has no segment for them.
  const std::string params = params_label(problem);
  return fmt::format("{}/{}/{}/{}pattern={}{}{}/threads={}", problem.op, backend,
                     to_string(problem.dtype), params.empty() ? "" : params + "/", problem.pattern,
                     fp, cold, threads);
}

}  // namespace ridgeline
