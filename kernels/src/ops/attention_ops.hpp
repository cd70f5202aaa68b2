#pragma once
// Scaled dot-product attention on f32, O = softmax(Q K^T / sqrt(head_dim) [+ causal mask]) V
// for each of `heads` (batch * heads) independent heads; Q, K, V and O are [heads, seq,
// head_dim], contiguous. docs/attention.md describes both forms.
//   fused    flash-style (attention_fused_body.hpp): per block of query rows, loop over
//            chunks of keys with an online softmax; the seq x seq scores are never written.
//            OpenMP over (head, query block); AVX-512, AVX2 or one-lane code by CPUID.
//   unfused  the eager chain (attention_unfused.cpp): packed GEMM -> S, mask pass, softmax
//            kernel -> P, packed GEMM -> O.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rowwise_ops.hpp"

namespace ridgeline::ops {

struct AttentionShape {
  std::int64_t heads = 0;  // batch * heads
  std::int64_t seq = 0;
  std::int64_t head_dim = 0;
  bool causal = false;
};

struct AttentionArgs {
  AttentionShape shape;
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  float* o = nullptr;
};

// Key positions are compared as floats in the fused kernel's masks: exact up to 2^24.
inline constexpr std::int64_t kAttentionMaxFusedSeq = std::int64_t{1} << 24;

// Floats of scratch attention_fused_isa needs (packed K and V, per-thread query blocks).
std::size_t attention_fused_scratch(Isa isa, const AttentionShape& shape, int threads);
// "32 query rows x 8 keys": the block and chunk of the ISA's implementation.
std::string attention_fused_tile(Isa isa);
// Throws std::invalid_argument for sizes < 1, seq > kAttentionMaxFusedSeq, threads < 1, or
// an ISA the CPU lacks.
void attention_fused_isa(Isa isa, const AttentionArgs& args, float* scratch, int threads);

namespace detail {
// What each ISA unit exports (attention_avx512.cpp, attention_avx2.cpp, attention_scalar.cpp).
struct AttentionFused {
  std::size_t (*scratch)(const AttentionShape& shape, int threads);
  void (*run)(const AttentionArgs& args, float* scratch, int threads);
  int rows;  // query rows per block
  int keys;  // keys per chunk
};
extern const AttentionFused attention_avx512, attention_avx2, attention_scalar;
}  // namespace detail

}  // namespace ridgeline::ops
