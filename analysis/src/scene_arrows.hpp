#pragma once
#include <cstddef>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/run_comparison.hpp"

namespace ridgeline::detail {

// Radius the scene keeps clear around a point's marker (the drawn markers fit inside it).
inline constexpr double kMarkerClearance = 7;

// Adds to `scene` (whose points are placed) an arrow per pair from the unfused point to
// the fused point, or an omission saying why there is none.
void add_fusion_arrows(RooflineScene& scene, const std::vector<RooflinePlacement>& placements,
                       const std::vector<FusionPair>& pairs);

// Adds an arrow per compared case from its base point to its new point: `placements` are the
// base run's (the first `base_count`) then the new run's, matched to `cases` by case_key. A
// case with a point missing is an omission; one whose two points are too close for an arrow
// is not (most unchanged cases are): their indices into `cases` are returned.
std::vector<std::size_t> add_comparison_arrows(RooflineScene& scene,
                                               const std::vector<RooflinePlacement>& placements,
                                               std::size_t base_count,
                                               const std::vector<CaseComparison>& cases);

}  // namespace ridgeline::detail
