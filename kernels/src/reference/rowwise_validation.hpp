#pragma once
#include <cstdint>

#include "ridgeline/core/case_result.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// softmax, layernorm, rmsnorm and eltwise_chain outputs against their references.
Validation validate_rowwise(const Problem& problem, Operands& operands, std::uint64_t seed);

}  // namespace ridgeline
