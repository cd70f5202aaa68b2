#pragma once
#include <string>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline::reports {

// Draws the scene as inline SVG: roofs with their labels where the scene placed them,
// ridge points, one marker per point (colour: backend, shape: dtype) with a tooltip.
std::string roofline_svg(const RooflineScene& scene, const ReportInput& input);
// Colour of a backend, stable within one report.
std::string backend_colour(const ReportInput& input, const std::string& backend);

}  // namespace ridgeline::reports
