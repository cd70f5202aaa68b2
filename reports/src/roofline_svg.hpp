#pragma once
#include <string>

#include "ridgeline/reports/report.hpp"

namespace ridgeline::reports {

// The log-log roofline as inline SVG: ceilings labelled with their values, ridge points,
// one point per placed result (colour: backend, shape: dtype) with a tooltip.
std::string roofline_svg(const ReportInput& input);
// Colour of a backend, stable within one report.
std::string backend_colour(const ReportInput& input, const std::string& backend);

}  // namespace ridgeline::reports
