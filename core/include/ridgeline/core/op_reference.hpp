#pragma once
// How an op's definition names its reference check (OpDefinition::reference): the outputs
// against the op computed in extended precision from the inputs, within the op's tolerance.
// The checks live in kernels (kernels/src/reference/), which core does not link, so a
// shipped op names its check by kind and kernels' validate() runs the code of that kind (a
// switch with no default: a kind without code is a -Wswitch warning). An op registered from
// outside the modules (a test's, through register_op) names its own function instead, which
// its binary links with kernels (tests/runner/worked_example_test.cpp).
#include <cstdint>

namespace ridgeline {

struct Problem;
struct Validation;
class Operands;  // kernels/operand_buffer.hpp

// The shipped reference checks, one per computation (kernels/src/reference/validation.cpp).
enum class ReferenceKind {
  none,
  gemm,
  gemm_bias_act,
  softmax,
  layernorm,
  rmsnorm,
  eltwise_chain,
  attention,
  einsum,
  allreduce,
  tp_gemm,
};

using ReferenceFunction = Validation (*)(const Problem& problem, Operands& operands,
                                         std::uint64_t seed);

// Either a shipped check's kind or an op's own function; neither: the op's cases are
// not_verified, saying there is no reference. Assigned from either, as
// `op.reference = ReferenceKind::softmax` or `op.reference = &scale_reference`.
class OpReference {
 public:
  constexpr OpReference() = default;
  constexpr OpReference(ReferenceKind kind) : kind_(kind) {}             // NOLINT: implicit
  constexpr OpReference(ReferenceFunction function) : own_(function) {}  // NOLINT: implicit
  constexpr ReferenceKind kind() const { return kind_; }
  constexpr ReferenceFunction own() const { return own_; }
  constexpr bool named() const { return kind_ != ReferenceKind::none || own_ != nullptr; }

 private:
  ReferenceKind kind_ = ReferenceKind::none;
  ReferenceFunction own_ = nullptr;
};

}  // namespace ridgeline
