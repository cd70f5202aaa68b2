#pragma once
#include <map>
#include <string>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline::reports {

// Backend -> colour, in order of first appearance in the placements: stable within one
// report, computed once.
using BackendColours = std::map<std::string, std::string>;
BackendColours backend_colours(const ReportInput& input);

// Draws the scene as inline SVG: roofs with their labels where the scene placed them,
// ridge points, one marker per point (colour: backend, shape: dtype) with a tooltip.
std::string roofline_svg(const RooflineScene& scene, const ReportInput& input,
                         const BackendColours& colours);

}  // namespace ridgeline::reports
