#pragma once
// Step of execute_case: the kernel prepared on fresh random data, run once and checked
// against the op's reference, at every rank of a collective together. Validation always
// runs on normal random data, whatever pattern is timed, so that a kernel cannot pass by
// being right only on zeros; the outputs start poisoned.
#include <vector>

#include "collective_ranks.hpp"
#include "ridgeline/kernels/validation.hpp"

namespace ridgeline {

struct ValidatedCase {
  Validation validation;
  std::vector<CaseResult> untimed;  // why the case is not timed; empty where it passed
  bool passed() const { return untimed.empty(); }
};

ValidatedCase prepare_and_validate(Kernel& kernel, const CaseSpec& spec, Operands& ops,
                                   std::uint64_t seed, CollectiveRanks& ranks);

}  // namespace ridgeline
