#pragma once
// The unfused attention: the eager-framework math path, one pass through memory per step
// over all heads, each step parallel (docs/attention.md):
//   Qs = Q / sqrt(head_dim)                   scale pass (the frameworks scale q before the matmul)
//   S_h = Qs_h K_h^T       per head           packed GEMM (packed_gemm.hpp), S: heads x seq x seq
//   S[i][j] = -inf, j > i                     mask pass over all of S (causal only)
//   P = softmax(S)         rows of all heads  the row-wise softmax kernel (one pass, as
//                                             torch.softmax)
//   O_h = P_h V_h          per head           packed GEMM
// In bf16 every materialised tensor (Qs, S, P, O) is bf16, as in an eager bf16 framework; the
// packed bf16 GEMM (vdpbf16ps) accumulates and writes f32, so each head's GEMM output lands
// in an f32 staging buffer (seq x seq for S, seq x head_dim for O) that a pass narrows into
// the bf16 tensor. A framework's bf16 matmul narrows in its store instead; the staging adds
// a round trip of one head's f32 scores (16 MiB at seq 2048) through the caches. bf16 needs
// AVX-512 and AVX512_BF16 on x86-64; on AArch64 the GEMMs are BFMMLA's (FEAT_BF16), which
// round to odd and flush denormals (microkernel_neon_bf16.cpp), and the passes plain NEON.
#include <cstddef>
#include <optional>
#include <string>

#include "../cpu/packed_gemm.hpp"
#include "attention_ops.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline::ops {

class AttentionUnfused {
 public:
  // Whether this CPU runs a packed micro-kernel (AVX-512 or AVX2 + FMA; NEON).
  static bool available();
  // Why this CPU cannot run the bf16 chain; empty where it can.
  static std::string bf16_unsupported();
  // Bytes of what prepare() allocates for `dtype` (f32 or bf16): S and P (heads * seq * seq
  // elements each) and the scaled Q, plus bf16's f32 staging; nullopt when the count
  // overflows.
  static std::optional<std::size_t> buffer_bytes(const AttentionShape& shape, DType dtype);

  // Allocates the buffers and sizes the two GEMMs (the best micro-kernel by CPUID, or the
  // forced ISA's for f32, whose softmax then runs at that ISA too); std::runtime_error where
  // available() is false or the CPU lacks the forced ISA, or for bf16 where
  // bf16_unsupported() says why.
  void prepare(const AttentionShape& shape, DType dtype, int threads,
               std::optional<Isa> forced = std::nullopt);
  Isa softmax_isa() const { return isa_; }
  // args.shape must be the prepared shape, the element type the prepared dtype.
  void run(const AttentionArgs& args);
  void run(const AttentionArgsBf16& args);
  std::string describe() const;  // the GEMMs' micro-kernel and blocking

 private:
  AttentionShape shape_;
  DType dtype_ = DType::f32;
  int threads_ = 1;
  Isa isa_ = best_isa();                     // of the f32 GEMMs' micro-kernel and the softmax
  OperandBuffer scores_, probs_, q_scaled_;  // in dtype_
  OperandBuffer stage_s_, stage_o_;          // bf16: one head's f32 GEMM output
  packed::MicroKernel<float> uk_{};
  packed::PackedGemm<float> qk_, pv_;
  packed::MicroKernel<std::uint16_t, float> uk_bf16_{};
  packed::PackedGemm<std::uint16_t, float> qk_bf16_, pv_bf16_;
};

}  // namespace ridgeline::ops
