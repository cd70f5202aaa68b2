#pragma once
// Step of execute_case: a collective kernel's ranks (Kernel::all_ranks) go on together or
// stop together. Before its first call a rank that cannot go on leaves the case untimed at
// every rank; once they are inside its calls together, a rank that throws cannot leave them
// there and go on with the plan (CollectiveLeft).
#include <string>
#include <vector>

#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

class CollectiveRanks {
 public:
  CollectiveRanks(Kernel& kernel, const CaseSpec& spec) : kernel_(kernel), spec_(spec) {}

  // Whether every rank can go on (each says `here`); a plain kernel answers for itself.
  bool all_can_go_on(bool here) { return kernel_.all_ranks(here); }

  // The case as this rank records it where another rank could not go on (`what` failed).
  std::vector<CaseResult> stopped_elsewhere(const std::string& what) const;

  // The case as crashed here with `why`; for a collective, thrown as CollectiveLeft.
  std::vector<CaseResult> crashed(const std::string& why) const;

 private:
  Kernel& kernel_;
  const CaseSpec& spec_;
};

}  // namespace ridgeline
