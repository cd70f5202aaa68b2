#pragma once
// Draws the roofline scene (analysis/roofline_scene.hpp) with QPainter: the same roofs,
// labels, ridge points, arrows and markers the HTML report's SVG draws from the same scene,
// in the same colours (reports/roofline_style.hpp). It computes no position: the scene
// holds them. Widget-free: it paints on any QPaintDevice (a QImage in tests and exports).
#include <QImage>
#include <QPainter>
#include <QPointF>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::gui {

// What a point is coloured by: the colours map `key(placement)` to a colour (colours_by).
// `run`: the base and the new run of a comparison apart ("base run", "new run"; one run:
// "this run").
enum class ColourBy { backend, op, bound, dtype, run };
// The key of the placement at `index` of the drawn ones, the first `base_count` a base run's.
std::string colour_key(const RooflinePlacement& placement, ColourBy by, std::size_t index = 0,
                       std::size_t base_count = 0);

struct RooflinePaint {
  const std::vector<RooflinePlacement>& placements;  // the ones the scene was made from
  const BackendColours& colours;                     // colour_key -> colour
  std::set<std::size_t> selected;  // drawn highlighted, their points at each level joined
  ColourBy by = ColourBy::backend;
  // Two runs (a comparison scene): the first `base_count` placements are the base run's,
  // drawn hollow; 0: one run.
  std::size_t base_count = 0;
  // Per arrow of the scene, its colour (a comparison: its verdict's); empty: dark grey.
  std::vector<std::string> arrow_colours{};
};

// The chart as an image of the scene's canvas size.
QImage roofline_image(const RooflineScene& scene, const RooflinePaint& paint);

// Paints `scene` in its canvas's pixel space (the painter's current transform maps it).
void paint_roofline(QPainter& painter, const RooflineScene& scene, const RooflinePaint& paint);

// The placement whose marker is under `position` (canvas pixels): the nearest point within
// the marker's radius, or nullopt.
std::optional<std::size_t> hit_test(const RooflineScene& scene, QPointF position);

}  // namespace ridgeline::gui
