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

// The op's reference check of the outputs (inputs as the case filled them): the one its
// definition names (OpDefinition::reference, core/op_reference.hpp); not_verified, saying
// so, for an op that names none.
Validation validate(const Problem& problem, Operands& operands, std::uint64_t seed);

// Problems with m*n*k up to this are checked entry by entry.
inline constexpr double kDirectCheckLimit = 1 << 25;

}  // namespace ridgeline
