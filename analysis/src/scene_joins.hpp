#pragma once
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"

namespace ridgeline::detail {

// Adds to `scene` (whose points are placed) a join per einsum contraction with two or more
// lowerings on the plot: the same equation, extents, dtype, threads, pattern and cache.
void add_einsum_joins(RooflineScene& scene, const std::vector<RooflinePlacement>& placements);

}  // namespace ridgeline::detail
