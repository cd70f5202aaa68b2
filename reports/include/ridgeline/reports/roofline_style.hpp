#pragma once
// What every roofline picture shows the same way, so that the HTML report and the dashboard
// agree: a colour per memory level, per backend (in order of first appearance) and per
// verdict, and a point's tooltip.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/run_comparison.hpp"

namespace ridgeline {

// "#2b8a3e": L1 (and a GPU's SMEM), L2, L3, PCIe; DRAM, HBM and anything else share one.
const char* level_colour(const std::string& level);

// Backend -> colour, in order of first appearance in the placements: stable within one
// picture, computed once.
using BackendColours = std::map<std::string, std::string>;
BackendColours backend_colours(const std::vector<RooflinePlacement>& placements);
// A backend's colour, a neutral grey for one the map does not hold.
std::string colour_of(const BackendColours& colours, const std::string& backend);
// The same for any key of a placement (its op, its bound, its run...): key -> colour.
BackendColours colours_by(const std::vector<RooflinePlacement>& placements,
                          const std::function<std::string(const RooflinePlacement&)>& key);

// The lines of a point's tooltip in the HTML report and the dashboard (plain text): its
// name (after "`run`: " where two runs are drawn), rate and threads, intensity at the
// point's level, attainable and efficiency, sources, notes, whether it is above the roof.
std::vector<std::string> point_lines(const RooflinePlacement& placement, const ScenePoint& point,
                                     const std::string& run = "");

// The outline of a marker whose GPU was throttled while it was timed (NVML).
inline constexpr const char* kThrottledStroke = "#f08c00";

// The colour of a memory sweep and its levels: read or copy, one thread or more.
const char* sweep_colour(const std::string& kernel, int threads);

// A roof's dash pattern in pixels (on, off, ...; empty: solid): dashed for more than one
// thread or a GPU; an overlay's second and further machines dotted (dash-dot where dashed).
std::vector<double> roof_dashes(const SceneLine& line);

// The colour a verdict is drawn in (comparison arrows and tables).
const char* verdict_colour(Verdict verdict);

}  // namespace ridgeline
