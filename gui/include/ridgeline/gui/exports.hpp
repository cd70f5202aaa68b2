#pragma once
// What the dashboard exports, each as the rest of Ridgeline writes it: the visible rows of
// the table as CSV, the selected cases as an HTML report, the chart as SVG (the HTML
// report's own writer over the chart's scene). The PNG is roofline_image.
#include <QAbstractItemModel>
#include <set>
#include <string>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "ridgeline/gui/run_document.hpp"

namespace ridgeline::gui {

// The header and every row of `model` (a filtered, sorted proxy: what the table shows), the
// display text of each cell, fields quoted as CSV needs.
std::string rows_csv(const QAbstractItemModel& model);

// The HTML report of `document`'s run cut to the cases of `placements` (their rows), under
// the same ceilings.
std::string selection_report_html(const RunDocument& document,
                                  const std::set<std::size_t>& placements);

// The chart as the HTML report's <svg>: `scene` made from `paint.placements`. One run (the
// document's placements): the report's own picture with its fusion arrows; more (a
// comparison, an overlay): the other runs hollow, each tooltip naming its run, a
// comparison's arrows coloured by verdict.
std::string chart_svg(const RooflineScene& scene, const RunDocument& document,
                      const RooflinePaint& paint, const RunComparison* comparison = nullptr);

}  // namespace ridgeline::gui
