#pragma once
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"

namespace ridgeline::detail {

// Radius the scene keeps clear around a point's marker (the drawn markers fit inside it).
inline constexpr double kMarkerClearance = 7;

// Adds to `scene` (whose points are placed) an arrow per pair from the unfused point to
// the fused point, or an omission saying why there is none.
void add_fusion_arrows(RooflineScene& scene, const std::vector<RooflinePlacement>& placements,
                       const std::vector<FusionPair>& pairs);

}  // namespace ridgeline::detail
