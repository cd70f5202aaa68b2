#include "ridgeline/kernels/kernel.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ridgeline {

Support check_common_support(const KernelInfo& info, const Problem& problem, int threads) {
  if (problem.op != info.op)
    return Support::no(fmt::format("{} implements {}, not {}", info.id(), info.op, problem.op));
  if (std::find(info.dtypes.begin(), info.dtypes.end(), problem.dtype) == info.dtypes.end())
    return Support::no(fmt::format("{} has no {} variant", info.id(), to_string(problem.dtype)));
  if (threads > 1 && !info.threaded)
    return Support::no(fmt::format("{} is single-threaded", info.id()));
  return Support::yes();
}

}  // namespace ridgeline
