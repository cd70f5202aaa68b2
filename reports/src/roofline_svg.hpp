#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::reports {

using ridgeline::backend_colours;
using ridgeline::BackendColours;

// How one arrow of the scene is drawn: its colour and its tooltip's lines (unescaped).
struct ArrowMark {
  std::string colour;
  std::vector<std::string> tip;
};

// What the SVG draws beyond the scene's geometry.
struct SvgMarks {
  const std::vector<RooflinePlacement>& placements;  // the ones the scene was made from
  const BackendColours& colours;
  // Two runs or more: the first `base_count` placements are the base run's (or an overlay's
  // other runs'), drawn hollow. 0: one run, every marker filled.
  std::size_t base_count = 0;
  std::function<ArrowMark(const SceneArrow&)> arrow;  // required where the scene has arrows
  // Lines (unescaped) added to a placement's tooltip, by its index; may be empty.
  std::function<std::vector<std::string>(std::size_t)> point_lines;
  // The run a placement belongs to ("base", "new", a file's name), first in its tooltip;
  // may be empty (one run).
  std::function<std::string(std::size_t)> run{};
};

// Draws the scene as inline SVG: roofs with their labels where the scene placed them,
// ridge points, arrows, one marker per point (colour: backend, shape: dtype) with a tooltip.
std::string roofline_svg(const RooflineScene& scene, const SvgMarks& marks);

}  // namespace ridgeline::reports
