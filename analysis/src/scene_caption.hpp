#pragma once
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"

namespace ridgeline::detail {

// The caption's sentences for `placements` drawn in `scene` (its arrows and omissions made),
// ending with "Hover a point for its numbers."
std::vector<std::string> scene_caption(const std::vector<RooflinePlacement>& placements,
                                       const RooflineScene& scene);

}  // namespace ridgeline::detail
