// The fused and unfused ops for AArch64 NEON (the architecture's baseline: no flags), over the
// traits in simd_neon.hpp, in f32 and bf16 (bf16_neon.hpp's conversions, baseline NEON too).
#include "bf16_neon.hpp"
#include "rowwise_bf16_body.hpp"
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"
#include "simd_neon.hpp"

namespace ridgeline::ops {

namespace detail {
const RowwiseKernels fused_neon = fused_table<F32x4>();
const RowwiseKernels unfused_neon = unfused_table<F32IO, F32x4>();
const RowwiseKernelsBf16 fused_neon_bf16 = fused_bf16_table<F32x4, Bf16x4>();
const RowwiseKernelsBf16 unfused_neon_bf16 = unfused_table<Bf16IO<Bf16x4>, F32x4>();
void exp_neon(const float* x, float* y, std::int64_t n) {
  exp_all<F32x4>(x, y, n);
}
}  // namespace detail

}  // namespace ridgeline::ops
