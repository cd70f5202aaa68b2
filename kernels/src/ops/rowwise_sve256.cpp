// The fused and unfused row-wise ops in f32 for SVE at a 256-bit vector length
// (simd_sve256.hpp; -msve-vector-bits=256), run only where this process's vector length is 256
// bits (Neoverse V1): 8 lanes where NEON has 4. bf16 stays the NEON unit's on every AArch64 CPU
// (bf16_neon.hpp). Not yet measured on an Arm core.
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"
#include "simd_sve256.hpp"

namespace ridgeline::ops {

namespace detail {
const RowwiseKernels fused_sve256 = fused_table<F32x8Sve>();
const RowwiseKernels unfused_sve256 = unfused_table<F32IO, F32x8Sve>();
void exp_sve256(const float* x, float* y, std::int64_t n) {
  exp_all<F32x8Sve>(x, y, n);
}
}  // namespace detail

}  // namespace ridgeline::ops
