#pragma once
// The collective ops' reference checks (allreduce, tp_gemm). Every rank of the job fills its
// inputs from the same seed, so the sum over the ranks is `ranks` times this rank's share:
// the checks hold what this rank computed against that, which catches a wrong count of
// ranks or a sum that missed some, though not two ranks' buffers swapped.
#include <cstdint>

#include "ridgeline/core/case_result.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

Validation validate_allreduce(const Problem& problem, Operands& operands, std::uint64_t seed);
Validation validate_tp_gemm(const Problem& problem, Operands& operands, std::uint64_t seed);

}  // namespace ridgeline
