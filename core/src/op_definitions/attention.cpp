// attention: O = softmax(Q K^T / sqrt(head_dim) [+ causal mask]) V per (batch, head),
// Q, K, V and O [batch, heads, seq, head_dim] contiguous. Fused (flash-style): tiles with
// an online softmax, the seq x seq scores never written. Unfused, the way an eager
// framework's math path runs it: a GEMM writes the scaled scores, a mask pass (causal),
// a softmax kernel writes the probabilities, a GEMM multiplies them by V.
#include <algorithm>
#include <cmath>

#include "op_definitions.hpp"

namespace ridgeline::ops {

namespace {

double heads(const Problem& p) {
  return dim(p, "batch") * dim(p, "heads");
}

bool causal(const Problem& p) {
  return p.params.attr("causal") == "1";
}

// Score entries computed per head: all of seq x seq, or the lower triangle with the
// diagonal when causal (the masked ones are not work, as in FlashAttention's count).
double scores(const Problem& p) {
  const double s = dim(p, "seq");
  return causal(p) ? s * (s + 1) / 2 : s * s;
}

std::vector<OperandSpec> operands(const Problem& p) {
  const std::int64_t elements = p.params.dim("batch") * p.params.dim("heads") *
                                p.params.dim("seq") * p.params.dim("head_dim");
  const std::vector<std::string> dims{"batch", "heads", "seq", "head_dim"};
  return {{"Q", OperandRole::input, dims, elements, p.dtype},
          {"K", OperandRole::input, dims, elements, p.dtype},
          {"V", OperandRole::input, dims, elements, p.dtype},
          {"O", OperandRole::output, dims, elements, p.dtype}};
}

// Q K^T and P V: 2 * head_dim each per score; the scale and softmax's 5 per score.
double flops(const Problem& p) {
  return heads(p) * scores(p) * (4.0 * dim(p, "head_dim") + 6.0);
}

WorkModel fused(const Problem& p) {
  return dram_work(flops(p), 4.0 * heads(p) * dim(p, "seq") * dim(p, "head_dim") * in_bytes(p));
}

// Per head, as the unfused kernel runs it: Q scaled by 1/sqrt(head_dim) into a copy; the
// score GEMM reads it and K and writes S (seq^2); the causal mask reads and writes S; softmax
// reads S and writes P; the context GEMM reads P and V and writes O. The GEMMs and softmax
// compute every entry, the masked ones too.
std::vector<PassWork> unfused(const Problem& p) {
  const double h = heads(p), s = dim(p, "seq"), d = dim(p, "head_dim"), e = in_bytes(p);
  std::vector<PassWork> passes{
      dram_pass("scale_q", h * s * d, 2.0 * h * s * d * e),
      dram_pass("scores_gemm", 2.0 * h * s * s * d, h * (2.0 * s * d + s * s) * e)};
  if (causal(p)) passes.push_back(dram_pass("mask", 0, 2.0 * h * s * s * e));
  passes.push_back(dram_pass("softmax", 5.0 * h * s * s, 2.0 * h * s * s * e));
  passes.push_back(dram_pass("context_gemm", 2.0 * h * s * s * d, h * (s * s + 2.0 * s * d) * e));
  return passes;
}

// Two dot products (head_dim, then seq long) around a softmax.
double tolerance(const Problem& p) {
  const double longest = std::max(dim(p, "seq"), dim(p, "head_dim"));
  return elementwise_tolerance(p, 6.0 + 2.0 * std::sqrt(longest));
}

}  // namespace

OpDefinition attention_definition() {
  OpDefinition op;
  op.name = "attention";
  op.description = "scaled dot-product attention, optionally causal";
  op.dims = {defaulted_dim("batch", 1, "independent sequences"),
             required_dim("heads", "attention heads"),
             required_dim("seq", "sequence length (queries and keys)"),
             required_dim("head_dim", "elements per head")};
  op.attrs = {{"causal", {"0", "1"}, "1: each query sees only the keys up to its own position"}};
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "heads=2,seq=64,head_dim=32";
  op.awkward = {"heads=1,seq=1,head_dim=64", "batch=2,heads=3,seq=37,head_dim=64/causal=1",
                "heads=2,seq=130,head_dim=128", "heads=1,seq=67,head_dim=32/causal=1"};
  op.operands = operands;
  op.work = fused;
  op.unfused_passes = unfused;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::attention;
  return op;
}

}  // namespace ridgeline::ops
