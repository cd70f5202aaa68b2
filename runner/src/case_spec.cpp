#include "ridgeline/runner/case_spec.hpp"

#include <fmt/format.h>

namespace ridgeline {

std::string CaseSpec::name() const {
  return fmt::format("{}/{}/{}/{}/layout={}/pattern={}/threads={}", problem.op, backend,
                     to_string(problem.dtype), shape_label(problem.shape),
                     to_string(problem.layout), problem.pattern, threads);
}

}  // namespace ridgeline
