#pragma once
#include <cstdint>

#include "ridgeline/core/case_result.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// The attention output O against attention_reference_row, each element's error relative to
// sum_j p_j |V[j][c]|; the bound is the op's tolerance (core). Problems with batch * heads *
// seq^2 * head_dim up to 2^26 are checked row by row in full; larger ones on 256 rows: the
// first and last of the whole output, the last of the first head, the first of the last
// head, and others drawn at random.
Validation validate_attention(const Problem& problem, Operands& operands, std::uint64_t seed);

}  // namespace ridgeline
