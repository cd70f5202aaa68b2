#pragma once
// Shared by the fusion analyses: the Ridgeline details behind each placement.
#include <vector>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline::detail {

// The details of each placement's case, by index; nullptr for a foreign result or a case
// the Run has no Ridgeline block for. Every entry of a case carries the same problem.
std::vector<const CaseDetails*> case_details(const Run& run,
                                             const std::vector<RooflinePlacement>& placements);

// The level a point of the pair or sweep is read at: DRAM (HBM on a GPU) where the
// placement has it, else its only level; "" where it has several and neither.
std::string comparison_level(const RooflinePlacement& p);

}  // namespace ridgeline::detail
