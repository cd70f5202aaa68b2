// The fused and unfused ops for AArch64 NEON (the architecture's baseline: no flags), over the
// traits in simd_neon.hpp.
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"
#include "simd_neon.hpp"

namespace ridgeline::ops {

namespace detail {
const RowwiseKernels fused_neon = fused_table<F32x4>();
const RowwiseKernels unfused_neon = unfused_table<F32IO, F32x4>();
void exp_neon(const float* x, float* y, std::int64_t n) {
  exp_all<F32x4>(x, y, n);
}
}  // namespace detail

}  // namespace ridgeline::ops
