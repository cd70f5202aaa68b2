#pragma once
// Draws the roofline scene (analysis/roofline_scene.hpp) with QPainter: the same roofs,
// labels, ridge points, arrows and markers the HTML report's SVG draws from the same scene,
// in the same colours (reports/roofline_style.hpp). It computes no position: the scene
// holds them. Widget-free: it paints on any QPaintDevice (a QImage in tests and exports).
#include <QPainter>
#include <QPointF>
#include <optional>
#include <set>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::gui {

struct RooflinePaint {
  const std::vector<RooflinePlacement>& placements;  // the ones the scene was made from
  const BackendColours& colours;
  std::set<std::size_t> selected;  // placements drawn highlighted
};

// Paints `scene` in its canvas's pixel space (the painter's current transform maps it).
void paint_roofline(QPainter& painter, const RooflineScene& scene, const RooflinePaint& paint);

// The placement whose marker is under `position` (canvas pixels): the nearest point within
// the marker's radius, or nullopt.
std::optional<std::size_t> hit_test(const RooflineScene& scene, QPointF position);

}  // namespace ridgeline::gui
