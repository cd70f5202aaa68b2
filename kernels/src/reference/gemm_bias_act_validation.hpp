#pragma once
// gemm_bias_act's reference (dot products in double, the activation in MathReal: long double
// on x86-64, wide_real.hpp), and the check of a kernel's C against it.
#include <cstdint>
#include <vector>

#include "../ops/activation.hpp"
#include "ridgeline/core/case_result.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"
#include "wide_real.hpp"

namespace ridgeline {

// The textbook activation: relu max(x, 0); gelu_tanh 0.5 x (1 + tanh(sqrt(2/pi) (x +
// 0.044715 x^3))), in MathReal.
MathReal activation_reference(ops::Activation act, MathReal x);

// A m x k, B k x n (row-major, f32; bf16 inputs are widened first, exactly), bias of n
// entries.
struct GemmBiasActInputs {
  const float* a;
  const float* b;
  const float* bias;
  std::int64_t m, n, k;
  ops::Activation act;
};

// One entry of C: value = act(z), z = sum_p a[i][p] b[p][j] + bias[j], and
// the scale its error is measured against, sum_p |a[i][p] b[p][j]| + |bias[j]|.
struct ReferenceEntry {
  MathReal value;
  MathReal scale;
};

// Entries [j0, j1) of row i of C (out is resized to j1 - j0).
void gemm_bias_act_reference(const GemmBiasActInputs& in, std::int64_t i, std::int64_t j0,
                             std::int64_t j1, std::vector<ReferenceEntry>& out);

// Entry (i, j) of C, given B's column j as k contiguous values.
ReferenceEntry gemm_bias_act_reference_entry(const GemmBiasActInputs& in, const float* b_column,
                                             std::int64_t i, std::int64_t j);

// C (f32) of a gemm_bias_act problem (f32 or bf16 inputs) against the reference. Errors are |c -
// act(z)| relative to the entry's scale: the activations' slopes are at most 1.13 (gelu) and 1
// (relu), so the dot product's error passes through them about unchanged, and their own roundings
// are relative to |act(z)| <= 1.13 |z|. The bound is the op's tolerance (the GEMM's plus
// the activation's roundings). Up to m*n*k = kDirectCheckLimit every entry is checked;
// above, every entry must be a number, and the first and last rows and columns (where
// edge tiles go wrong), 16 random rows and 1024 random entries are checked.
Validation validate_gemm_bias_act(const Problem& problem, Operands& operands, std::uint64_t seed);

}  // namespace ridgeline
