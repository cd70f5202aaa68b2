#include "ridgeline/kernels/kernel.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {

Support check_common_support(const KernelInfo& info, const Problem& problem, int threads) {
  if (problem.op != info.op)
    return Support::no(fmt::format("{} implements {}, not {}", info.id(), info.op, problem.op));
  if (std::find(info.dtypes.begin(), info.dtypes.end(), problem.dtype) == info.dtypes.end())
    return Support::no(fmt::format("{} has no {} variant", info.id(), to_string(problem.dtype)));
  // Batched GEMMs are the vendor libraries' (cuBLAS strided batches), not the ladder's.
  if (problem.op == "gemm" && gemm_shape(problem).batch != 1)
    return Support::no(fmt::format("{} does not implement batched problems", info.id()));
  if (threads > 1 && !info.threaded)
    return Support::no(fmt::format("{} is single-threaded", info.id()));
  return Support::yes();
}

}  // namespace ridgeline
