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

// T: float, or bf16 as its raw bits (std::uint16_t, as OperandBuffer holds it).
template <typename T>
struct AttentionArgsOf {
  AttentionShape shape;
  const T* q = nullptr;
  const T* k = nullptr;
  const T* v = nullptr;
  T* o = nullptr;
};
using AttentionArgs = AttentionArgsOf<float>;
using AttentionArgsBf16 = AttentionArgsOf<std::uint16_t>;

// Key positions are compared as floats in the fused kernel's masks: exact up to 2^24.
inline constexpr std::int64_t kAttentionMaxFusedSeq = std::int64_t{1} << 24;

// Floats of scratch attention_fused_isa needs (packed K and V, per-thread query blocks).
std::size_t attention_fused_scratch(Isa isa, const AttentionShape& shape, int threads);
// "32 query rows x 8 keys": the block and chunk of the ISA's implementation.
std::string attention_fused_tile(Isa isa);
// Throws std::invalid_argument for sizes < 1, seq > kAttentionMaxFusedSeq, threads < 1, or
// an ISA the CPU lacks.
void attention_fused_isa(Isa isa, const AttentionArgs& args, float* scratch, int threads);
// bf16 in memory (Q, K, V, O), f32 arithmetic, O rounded to nearest even; the scratch is
// the same floats. Only the widest vector implementations have it: AVX-512, where it needs
// AVX512_BF16 (vcvtneps2bf16), and NEON and SVE (every AArch64 CPU); elsewhere this throws
// std::invalid_argument with the reason.
void attention_fused_isa(Isa isa, const AttentionArgsBf16& args, float* scratch, int threads);
// Why attention_fused_isa cannot run bf16 for `isa` on this CPU; empty where it can.
std::string attention_fused_bf16_unsupported(Isa isa);

namespace detail {
// What each ISA unit exports (attention_avx512.cpp, attention_avx2.cpp, attention_scalar.cpp;
// on AArch64 attention_sve256.cpp, attention_neon.cpp and attention_scalar.cpp).
struct AttentionFused {
  std::size_t (*scratch)(const AttentionShape& shape, int threads);
  void (*run)(const AttentionArgs& args, float* scratch, int threads);
  int rows;  // query rows per block
  int keys;  // keys per chunk
  void (*run_bf16)(const AttentionArgsBf16& args, float* scratch, int threads);  // or nullptr
};
extern const AttentionFused attention_avx512, attention_avx2, attention_scalar;
extern const AttentionFused attention_neon, attention_sve256;

// The unfused chain's bf16 passes (attention_bf16_passes.hpp; in attention_avx512.cpp, which
// needs AVX512_BF16, and attention_neon.cpp), OpenMP over blocks: y = bf16(x * scale) for the
// scaled Q, and y = bf16(x) for the GEMMs' f32 output.
struct AttentionBf16Passes {
  void (*scale)(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, float scale, int threads);
  void (*narrow)(const float* x, std::uint16_t* y, std::int64_t n, int threads);
};
extern const AttentionBf16Passes attention_bf16_passes_avx512;
extern const AttentionBf16Passes attention_bf16_passes_neon;

// The bf16 fused attention with both matmuls on the AMX tiles (attention_amx_body.hpp): on
// the instructions (call only where amx_support().reason_for("bf16") is empty; built for
// x86-64 only) and on the tile model (any CPU; slow, for the tests). Sizes checked as
// attention_fused_isa does.
struct AttentionAmx {
  std::size_t (*scratch)(const AttentionShape& shape, int threads);  // floats
  void (*run)(const AttentionArgsBf16& args, float* scratch, int threads);
};
extern const AttentionAmx attention_amx_hardware, attention_amx_model;
}  // namespace detail

// 32 query rows x 64 keys on the tiles: the AMX path's tile, as attention_fused_tile says.
inline constexpr const char* kAttentionAmxTile = "32 query rows x 64 keys (AMX)";

}  // namespace ridgeline::ops
