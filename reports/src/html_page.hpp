#pragma once
// What the HTML pages Ridgeline writes share: the inline style sheet, the script that sorts
// a table.sortable by the header clicked (numbers by their data-v) and marks the page ready
// (data-report-ready on body, for headless checks), and the pieces around a roofline plot.
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "roofline_svg.hpp"

namespace ridgeline::reports {

extern const char* const kReportStyle;
extern const char* const kSortScript;

// Under a roofline plot: its caption, the roof labels that found no room on it, and every
// result or roof left off with the reason.
std::string plot_notes(const RooflineScene& scene);
// The Results section: a table per op (results_by_op), folded columns behind a checkbox per
// group; then the cases not placeable.
std::string results_html(const std::vector<RooflinePlacement>& placements);
// The key under a roofline: a swatch per backend of the placed points, the marker shapes and
// the roofs' colours, then `extra` (HTML spans).
std::string roofline_legend(const std::vector<RooflinePlacement>& placements,
                            const BackendColours& colours, const std::string& extra);

}  // namespace ridgeline::reports
