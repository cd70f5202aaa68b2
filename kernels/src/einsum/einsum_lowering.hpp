#pragma once
// How a two-operand einsum becomes GEMMs. Its indices by role (batch: in A, B and C; m: A
// and C; n: B and C; k: A and B, contracted), then each lowering's view:
//  - TTGT permutes A to [batch, m, k], B to [batch, k, n], runs one GEMM per batch into
//    [batch, m, n] and permutes that to C; an operand already in its order is not copied.
//  - the strided lowering runs the GEMM per batch on the operands where they lie (leading
//    dimensions, transposed reads), possible only where each group of indices is adjacent
//    in every operand that has it and C ends in one group then the other.
// The bytes each lowering adds to the op's compulsory traffic come from here too.
#include <cstdint>
#include <string>
#include <vector>

#include "../cpu/gather_layout.hpp"
#include "ridgeline/core/ops/einsum.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

struct EinsumGroups {
  std::string batch, m, n, k;      // each in C's order (k: in A's)
  std::string summed_a, summed_b;  // in one input only and not in C
};
EinsumGroups einsum_groups(const EinsumSpec& s);

// Where a GEMM lowering cannot apply whatever the layout: an index summed in one operand
// only. Support::yes() otherwise.
Support gemm_lowering_support(const EinsumSpec& s);

struct TtgtPlan {
  std::string a, b, c;                                           // the GEMM's operand orders
  bool permute_a = false, permute_b = false, permute_c = false;  // copies needed
  std::int64_t batch = 1, m = 1, n = 1, k = 1;                   // the groups' extents
};
TtgtPlan ttgt_plan(const EinsumSpec& s);

// Elements TTGT copies: each permuted operand written once and read back once (A, B) or
// written by the GEMM and read by the permute (C): twice its elements, per permuted operand.
double ttgt_added_elements(const EinsumSpec& s, const TtgtPlan& p);
// A TTGT lowering's work (every one: the CPU's, each vendor's, the GPU's): the op's, and the
// copies' bytes in main memory.
WorkModel ttgt_work(const Problem& problem);

// TTGT's steps in the order they run (Kernel::lowering_steps): each input out of order
// permuted (its note the operand's: "A"), the GEMM ("gemm"), C permuted back ("C"); with
// `lapped`, each named as the pass that laps it: "permute_A", "gemm", "permute_C".
std::vector<LoweringStep> ttgt_steps(const TtgtPlan& p, bool lapped);

// `info` declared as a lowering of `kind` (KernelInfo::lowering).
KernelInfo declared_lowering(KernelInfo info, LoweringKind kind);

// The copy-free view: the GEMM of one batch on strided operands (PackedGemm's convention:
// A[i * lda + p], or A[p * lda + i] with ta; C m x n dense), and each batch index's extent
// and stride in A, B and C. With `swapped`, A's role is B's: C^T = B^T A^T (C ends in m
// then n indices of the other operand).
struct StridedView {
  std::int64_t m = 1, n = 1, k = 1, lda = 1, ldb = 1;
  bool ta = false, tb = false, swapped = false;
  std::vector<std::int64_t> batch_extent, batch_a, batch_b, batch_c;
  std::int64_t batches = 1;
};
// The view, or why a copy is unavoidable (one line naming the operand and indices).
Support strided_view(const EinsumSpec& s, StridedView& view);

// Each batch's element offsets in the GEMM's left operand, right operand and C.
struct BatchOffsets {
  std::int64_t a = 0, b = 0, c = 0;
};
std::vector<BatchOffsets> batch_offsets(const StridedView& v);
// TTGT's: batch i of the dense [batch, m, k], [batch, k, n] and [batch, m, n] operands.
std::vector<BatchOffsets> dense_batch_offsets(const TtgtPlan& p);
// TTGT's GEMM step as a view: plan.batch products of dense row-major matrices, no
// transposes, each row's length its leading dimension.
StridedView dense_view(const TtgtPlan& p);
// "16 products of 256x256x64 (lda 64, ldb 64, transposed)" for a kernel's notes.
std::string describe(const StridedView& v);

// GETT's view: the GEMM of one batch on every operand where it lies, through offset tables
// (cpu/gather_layout.hpp); m and n in C's index order, k in A's, so C's rows and a panel's
// lanes run at one stride wherever an index's extent allows. With `swapped`, A's role is
// B's (C^T = B^T A^T): chosen where C's stride-1 index is one of A's, so that index runs
// along a tile's row and C's tiles are stored directly. Each batch's offsets as the strided
// view's (left, right, C).
struct GettView {
  std::int64_t m = 1, n = 1, k = 1;
  bool swapped = false;
  packed::GatherLayout layout;
  std::vector<BatchOffsets> batches;
};
// For an einsum gemm_lowering_support accepts.
GettView gett_view(const EinsumSpec& s);

// A strided lowering's call, prepared: the view and where the GEMM's left and right
// operands (B first where the product is transposed) and C start for each batch.
struct StridedCall {
  StridedView view;
  const void* left = nullptr;
  const void* right = nullptr;
  void* c = nullptr;
  std::vector<BatchOffsets> offsets;
};
// For a problem strided_view accepts (the kernels' supports() checked it).
StridedCall strided_call(const Problem& problem, Operands& operands);

}  // namespace ridgeline
