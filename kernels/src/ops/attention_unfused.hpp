#pragma once
// The unfused attention: the eager-framework math path, one pass through memory per step
// over all heads, each step parallel (docs/attention.md):
//   Qs = Q / sqrt(head_dim)                   scale pass (the frameworks scale q before the matmul)
//   S_h = Qs_h K_h^T       per head           packed GEMM (packed_gemm.hpp), S: heads x seq x seq
//   S[i][j] = -inf, j > i                     mask pass over all of S (causal only)
//   P = softmax(S)         rows of all heads  the row-wise softmax kernel (one pass, as
//   torch.softmax) O_h = P_h V_h          per head           packed GEMM
#include <cstddef>
#include <optional>
#include <string>

#include "../cpu/packed_gemm.hpp"
#include "attention_ops.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline::ops {

class AttentionUnfused {
 public:
  // Whether this CPU runs a packed micro-kernel (AVX-512, or AVX2 + FMA).
  static bool available();
  // Bytes of what prepare() allocates: S and P (heads * seq * seq floats each) and the
  // scaled Q; nullopt when the count overflows.
  static std::optional<std::size_t> buffer_bytes(const AttentionShape& shape);

  // Allocates the buffers and sizes the two GEMMs (the best micro-kernel by CPUID);
  // std::runtime_error where available() is false.
  void prepare(const AttentionShape& shape, int threads);
  // args.shape must be the prepared shape.
  void run(const AttentionArgs& args);
  std::string describe() const;  // the GEMMs' micro-kernel and blocking

 private:
  AttentionShape shape_;
  int threads_ = 1;
  OperandBuffer scores_, probs_, q_scaled_;
  packed::MicroKernel<float> uk_{};
  packed::PackedGemm<float> qk_, pv_;
};

}  // namespace ridgeline::ops
