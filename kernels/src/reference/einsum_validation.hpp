#pragma once
#include <cstdint>

#include "ridgeline/core/case_result.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// C of an einsum problem (f32 or f64) against sums in WideReal (wide_real.hpp) over the
// contracted indices, each error relative to that output's sum of |a b| (the op's tolerance bounds
// it). Every output is checked where outputs x contracted points is at most 2^26; above,
// every output must be a number, and the first, the last and 4096 random outputs are
// checked.
Validation validate_einsum(const Problem& problem, Operands& operands, std::uint64_t seed);

}  // namespace ridgeline
