#pragma once
// What each ISA-specific translation unit exports: one table of fused and one of unfused
// implementations, over f32 (every ISA) or bf16 (AVX-512 with AVX512_BF16 only; raw bits,
// std::uint16_t). The public entries in rowwise_ops.cpp check arguments and the CPU, then
// call through these. Shapes are already validated (rows, cols, n >= 1; 1 <= L <= 32). Each
// architecture builds its own units: x86-64 the avx512 and avx2 ones, AArch64 the neon ones;
// scalar both.
#include <cstdint>

namespace ridgeline::ops::detail {

template <typename T>
struct RowwiseTable {
  void (*softmax)(const T* x, T* y, T* scratch, std::int64_t rows, std::int64_t cols, int threads);
  void (*layernorm)(const T* x, const T* gamma, const T* beta, T* y, T* scratch, std::int64_t rows,
                    std::int64_t cols, float eps, int threads);
  void (*rmsnorm)(const T* x, const T* gamma, T* y, T* scratch, std::int64_t rows,
                  std::int64_t cols, float eps, int threads);
  void (*eltwise_chain)(const T* x, T* y, std::int64_t n, int L, int threads);
};
using RowwiseKernels = RowwiseTable<float>;
using RowwiseKernelsBf16 = RowwiseTable<std::uint16_t>;

// Fused tables ignore `scratch` (nullptr is passed).
extern const RowwiseKernels fused_avx512, fused_avx2, fused_scalar;
extern const RowwiseKernels unfused_avx512, unfused_avx2, unfused_scalar;
extern const RowwiseKernelsBf16 fused_avx512_bf16, unfused_avx512_bf16;
extern const RowwiseKernels fused_neon, unfused_neon;
extern const RowwiseKernelsBf16 fused_neon_bf16, unfused_neon_bf16;
extern const RowwiseKernels fused_sve256, unfused_sve256;

void exp_avx512(const float* x, float* y, std::int64_t n);
void exp_avx2(const float* x, float* y, std::int64_t n);
void exp_scalar(const float* x, float* y, std::int64_t n);
void exp_neon(const float* x, float* y, std::int64_t n);
void exp_sve256(const float* x, float* y, std::int64_t n);

}  // namespace ridgeline::ops::detail
