// The fused and unfused ops over one-lane "vectors", compiled for the library's baseline with
// no intrinsics: the fallback where neither AVX-512 nor AVX2 + FMA is present (what the
// compiler makes of the loops there is its business).
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"

namespace ridgeline::ops::detail {
const RowwiseKernels fused_scalar = fused_table<F32x1>();
const RowwiseKernels unfused_scalar = unfused_table<F32IO, F32x1>();
void exp_scalar(const float* x, float* y, std::int64_t n) {
  exp_all<F32x1>(x, y, n);
}
}  // namespace ridgeline::ops::detail
