#pragma once
// Launchers of the memory-bound ops' CUDA kernels (rowwise_fused.cu, rowwise_unfused.cu): softmax,
// layernorm and rmsnorm one block per row, the eltwise chain over n elements; f32 or bf16 storage
// (dtype), f32 arithmetic. Fused: one kernel, x read, y written once. Unfused: one kernel per step
// of the op's unfused passes (core/src/op_definitions), each reading and writing device memory, as
// an eager framework runs them. Each launch is checked. Included by .cu files: C++17.
#include <cuda_runtime.h>

#include <cstdint>

#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

struct DeviceRows {
  const void* x = nullptr;
  void* y = nullptr;
  const void* gamma = nullptr;  // layernorm, rmsnorm
  const void* beta = nullptr;   // layernorm
  std::int64_t rows = 0, cols = 0;
  DType dtype = DType::f32;
};

// The unfused chains' intermediates, in the problem's dtype: a full rows x cols array and two
// vectors of one value per row.
struct DeviceScratch {
  void* full = nullptr;
  void* row_a = nullptr;
  void* row_b = nullptr;
};
std::int64_t rowwise_scratch_elements(std::int64_t rows, std::int64_t cols);

void launch_softmax_fused(const DeviceRows& r, cudaStream_t s);
void launch_layernorm_fused(const DeviceRows& r, float eps, cudaStream_t s);
void launch_rmsnorm_fused(const DeviceRows& r, float eps, cudaStream_t s);
void launch_eltwise_chain_fused(const DeviceRows& r, int length, cudaStream_t s);  // rows = 1

// The passes of core/src/op_definitions/softmax.cpp, norms.cpp and eltwise_chain.cpp, in their
// order.
void launch_softmax_unfused(const DeviceRows& r, const DeviceScratch& t, cudaStream_t s);
void launch_layernorm_unfused(const DeviceRows& r, const DeviceScratch& t, float eps,
                              cudaStream_t s);
void launch_rmsnorm_unfused(const DeviceRows& r, const DeviceScratch& t, float eps, cudaStream_t s);
void launch_eltwise_chain_unfused(const DeviceRows& r, int length, cudaStream_t s);

// gemm_bias_act's passes after the GEMM, on f32 C (m x n): C += bias (bias in `bias_dtype`),
// then C = act(C) (act 0 relu, 1 gelu_tanh).
void launch_bias_pass(float* c, const void* bias, DType bias_dtype, std::int64_t m, std::int64_t n,
                      cudaStream_t s);
void launch_activation_pass(float* c, std::int64_t elements, int act, cudaStream_t s);
// bf16 to f32, element by element (cuBLASLt's epilogue takes an f32 bias with f32 C).
void launch_widen_bf16(const void* in, float* out, std::int64_t elements, cudaStream_t s);

}  // namespace ridgeline
