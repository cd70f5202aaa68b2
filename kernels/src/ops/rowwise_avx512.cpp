// The fused and unfused ops for AVX-512 (F, DQ, BW, VL; flags in kernels/CMakeLists.txt, with
// 512-bit vectors preferred so the unfused passes use zmm too), over the traits in
// simd_avx512.hpp, in f32 and, with AVX512_BF16 (-mavx512bf16; only called where CPUID has
// it), bf16.
#include "bf16_avx512.hpp"
#include "rowwise_bf16_body.hpp"
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"
#include "simd_avx512.hpp"

namespace ridgeline::ops {

namespace detail {
const RowwiseKernels fused_avx512 = fused_table<F32x16>();
const RowwiseKernels unfused_avx512 = unfused_table<F32IO, F32x16>();
const RowwiseKernelsBf16 fused_avx512_bf16 = fused_bf16_table<F32x16, Bf16x16>();
const RowwiseKernelsBf16 unfused_avx512_bf16 = unfused_table<Bf16IO<Bf16x16>, F32x16>();
void exp_avx512(const float* x, float* y, std::int64_t n) {
  exp_all<F32x16>(x, y, n);
}
}  // namespace detail

}  // namespace ridgeline::ops
