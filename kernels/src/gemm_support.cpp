#include <fmt/format.h>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

Support check_gemm_support(const KernelInfo& info, const Problem& problem, int threads) {
  if (Support s = check_common_support(info, problem, threads); !s) return s;
  return check_gemm_batch(info, problem);
}

Support check_gemm_batch(const KernelInfo& info, const Problem& problem) {
  if (gemm_shape(problem).batch != 1)
    return Support::no(fmt::format("{} does not implement batched problems", info.id()));
  return Support::yes();
}

}  // namespace ridgeline
