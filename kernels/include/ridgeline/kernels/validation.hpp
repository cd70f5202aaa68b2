#pragma once
#include <cstdint>
#include <string>

#include "ridgeline/core/case_result.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// Checks C against op(A) * op(B) computed in extended precision (long double).
// Small problems are checked entry by entry; large ones with two Freivalds projections
// plus every entry of the last row and column and a random sample of entries. Each
// entry's error is relative to sum_p |a_ip||b_pj|; the tolerance is
// 16 * sqrt(k) * u(dtype) (u = unit roundoff), a statistical bound for any summation order.
Validation validate_gemm(const Problem& problem, const GemmOperands& operands, std::uint64_t seed);

// The op's reference check of the outputs (inputs as the case filled them): the check
// registered for the op's name; not_verified, saying so, for an op with none.
Validation validate(const Problem& problem, Operands& operands, std::uint64_t seed);

// An op's reference check: each output against the op computed in extended precision from
// the inputs, within the op's tolerance (OpDefinition::tolerance).
using OpValidator = Validation (*)(const Problem& problem, Operands& operands, std::uint64_t seed);
// Adds the check of an op a test registers (register_op); std::logic_error for an op that
// has one.
void register_validator(const std::string& op, OpValidator validator);

// Problems with m*n*k up to this are checked entry by entry.
inline constexpr double kDirectCheckLimit = 1 << 25;

}  // namespace ridgeline
