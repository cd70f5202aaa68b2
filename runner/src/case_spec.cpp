#include "ridgeline/runner/case_spec.hpp"

#include <fmt/format.h>

namespace ridgeline {

std::string CaseSpec::name() const {
  return fmt::format("{}/{}/{}/{}/pattern={}/threads={}", problem.op, backend,
                     to_string(problem.dtype), params_label(problem), problem.pattern, threads);
}

}  // namespace ridgeline
