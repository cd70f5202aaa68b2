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
#include <utility>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::gui {

// What a point is coloured by: the colours map `key(placement)` to a colour (colours_by).
// `run`: the runs drawn apart (a comparison's "base run" and "new run", an overlay's file
// names; one run: "this run").
enum class ColourBy { backend, op, bound, dtype, run };
// The runs among the drawn placements: (index of a run's first placement, its name), in
// order; empty: one run.
using RunSpans = std::vector<std::pair<std::size_t, std::string>>;
// The name of the run placement `index` belongs to ("this run" without spans).
std::string run_name(const RunSpans& runs, std::size_t index);
// The key of the placement at `index` of the drawn ones.
std::string colour_key(const RooflinePlacement& placement, ColourBy by, std::size_t index = 0,
                       const RunSpans& runs = {});

struct RooflinePaint {
  const std::vector<RooflinePlacement>& placements;  // the ones the scene was made from
  const BackendColours& colours;                     // colour_key -> colour
  std::set<std::size_t> selected{};  // drawn highlighted, their points at each level joined
  ColourBy by = ColourBy::backend;
  // Other runs drawn with the run shown (a comparison's base, an overlay's runs): the first
  // `base_count` placements, drawn hollow; 0: one run.
  std::size_t base_count = 0;
  // Per arrow of the scene, its colour (a comparison: its verdict's); empty: dark grey.
  std::vector<std::string> arrow_colours{};
  RunSpans runs{};            // for ColourBy::run
  bool size_by_time = false;  // marker area grows with the case's time per call (log scale)
};

// How much larger than usual a marker of a case taking `seconds` per call is drawn when
// markers are sized by time: 0.6 at `fastest`, 1.8 at `slowest` (log scale), in five steps.
double time_scale(double seconds, double fastest, double slowest);

// The chart as an image of the scene's canvas size.
QImage roofline_image(const RooflineScene& scene, const RooflinePaint& paint);

// Paints `scene` in its canvas's pixel space (the painter's current transform maps it).
void paint_roofline(QPainter& painter, const RooflineScene& scene, const RooflinePaint& paint);

// The placement whose marker is under `position` (canvas pixels): the nearest point within
// the marker's radius, or nullopt.
std::optional<std::size_t> hit_test(const RooflineScene& scene, QPointF position);

}  // namespace ridgeline::gui
