#pragma once
#include <cstdint>

#include "../ops/rowwise_op.hpp"
#include "ridgeline/core/case_result.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// softmax, layernorm, rmsnorm and eltwise_chain outputs against their references.
Validation validate_rowwise(RowwiseOp op, const Problem& problem, Operands& operands,
                            std::uint64_t seed);

// The same as the shipped check of each op's kind (validation.cpp: shipped_check).
template <RowwiseOp op>
Validation validate_rowwise_op(const Problem& problem, Operands& operands, std::uint64_t seed) {
  return validate_rowwise(op, problem, operands, seed);
}

}  // namespace ridgeline
