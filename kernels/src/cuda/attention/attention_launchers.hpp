#pragma once
// Launchers of attention's CUDA kernels (flash_attention.cu, attention_passes.cu): Q, K, V
// and O [batch x heads, seq, head_dim] contiguous, row-major. Included by .cu files: C++17.
#include <cuda_runtime.h>

#include <cstdint>

#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

struct DeviceAttention {
  const void* q = nullptr;
  const void* k = nullptr;
  const void* v = nullptr;
  void* o = nullptr;
  std::int64_t heads = 0;  // batch x heads
  std::int64_t seq = 0, head_dim = 0;
  bool causal = false;
  DType dtype = DType::bf16;
};

// The head dims the flash kernel is built for (multiples of its 16-deep mma steps).
bool flash_attention_head_dim(std::int64_t head_dim);
// The warps of 16 queries each a flash attention block takes at this head dim (4 or 8).
int flash_attention_warps(std::int64_t head_dim);
// O = softmax(Q K^T / sqrt(head_dim)) V, bf16, tiles of 16 x flash_attention_warps() queries
// against blocks of 64 keys, the scores in registers only.
void launch_flash_attention(const DeviceAttention& a, cudaStream_t s);

// The unfused chain's element passes: out = in * scale (the scaled copy of Q), and the
// causal mask over the scores S [heads, seq, seq] (entries above the diagonal to -inf, every
// entry read and written, as an eager masked_fill runs).
void launch_scale(const void* in, void* out, std::int64_t elements, float scale, DType dtype,
                  cudaStream_t s);
void launch_causal_mask(void* scores, std::int64_t heads, std::int64_t seq, DType dtype,
                        cudaStream_t s);

}  // namespace ridgeline
