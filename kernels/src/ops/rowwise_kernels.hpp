#pragma once
// What each ISA-specific translation unit exports: one table of fused and one of unfused
// implementations. The public entries in rowwise_ops.cpp check arguments and the CPU, then
// call through these. Shapes are already validated (rows, cols, n >= 1; 1 <= L <= 32).
#include <cstdint>

namespace ridgeline::ops::detail {

struct RowwiseKernels {
  void (*softmax)(const float* x, float* y, float* scratch, std::int64_t rows, std::int64_t cols,
                  int threads);
  void (*layernorm)(const float* x, const float* gamma, const float* beta, float* y, float* scratch,
                    std::int64_t rows, std::int64_t cols, float eps, int threads);
  void (*rmsnorm)(const float* x, const float* gamma, float* y, float* scratch, std::int64_t rows,
                  std::int64_t cols, float eps, int threads);
  void (*eltwise_chain)(const float* x, float* y, std::int64_t n, int L, int threads);
};

// Fused tables ignore `scratch` (nullptr is passed).
extern const RowwiseKernels fused_avx512, fused_avx2, fused_scalar;
extern const RowwiseKernels unfused_avx512, unfused_avx2, unfused_scalar;

void exp_avx512(const float* x, float* y, std::int64_t n);
void exp_avx2(const float* x, float* y, std::int64_t n);
void exp_scalar(const float* x, float* y, std::int64_t n);

}  // namespace ridgeline::ops::detail
