// The fused and unfused ops for AVX2 + FMA (flags in kernels/CMakeLists.txt), over the traits
// in simd_avx2.hpp.
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"
#include "simd_avx2.hpp"

namespace ridgeline::ops {

namespace detail {
const RowwiseKernels fused_avx2 = fused_table<F32x8>();
const RowwiseKernels unfused_avx2 = unfused_table<F32IO, F32x8>();
void exp_avx2(const float* x, float* y, std::int64_t n) {
  exp_all<F32x8>(x, y, n);
}
}  // namespace detail

}  // namespace ridgeline::ops
