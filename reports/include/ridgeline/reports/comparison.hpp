#pragma once
// The printers of a run comparison (analysis/run_comparison.hpp): the terminal table,
// JSON, Markdown for $GITHUB_STEP_SUMMARY and JUnit XML. They format the model; every
// number and verdict comes from it (docs/compare.md).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "ridgeline/analysis/calibration.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/analysis/run_history.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

struct ComparisonView {
  const RunComparison& comparison;
  std::string base, head;  // the files as the user named them
  FailOn fail_on = FailOn::regression;
  std::string fail_on_name = "regression";
  bool all = false;          // list the unchanged cases too (terminal)
  bool allow_empty = false;  // no case in both runs passes the gate (compare --allow-empty)
};

std::string comparison_text(const ComparisonView& view);
std::string comparison_json(const ComparisonView& view);
// At most about 900 KiB (GitHub's step summary takes 1 MiB): unchanged rows go in a
// <details> block and are the first left out, with a line saying how many, where it is
// longer.
std::string comparison_markdown(const ComparisonView& view);
std::string comparison_junit(const ComparisonView& view);
// `ridgeline report BASE NEW -o cmp.html`: one self-contained page with both runs on one
// roofline (hollow markers the base, filled the new; roofs of the new run's machine, else the
// base's), an arrow from each case's base point to its new point coloured by verdict, and the
// verdict table. `base` and `head` are the runs' report inputs, `view` their comparison.
std::string comparison_html(const ReportInput& base, const ReportInput& head,
                            const ComparisonView& view);
// The picture of several runs on one roofline as an <svg>: `placements` the scene was made
// from, the first `base_count` of them (a comparison's base, the dashboard's other runs)
// drawn hollow, each tooltip starting with `run(placement)`; with `comparison`, its arrows
// coloured by verdict and each compared point's verdict in its tooltip.
std::string runs_picture_svg(const RooflineScene& scene,
                             const std::vector<RooflinePlacement>& placements,
                             std::size_t base_count,
                             const std::function<std::string(std::size_t)>& run,
                             const RunComparison* comparison = nullptr);

// `compare --history`: each case's steps with the run they start at, then the newest run's
// comparison against the runs before it (comparison_text).
struct HistoryView {
  const RunHistory& history;
  std::vector<std::string> runs;  // the files, oldest first
  FailOn fail_on = FailOn::regression;
  std::string fail_on_name = "regression";
  bool all = false;
};
std::string history_text(const HistoryView& view);

// `compare --calibrate`: per case its noise floor and threshold, noisiest first, and the
// false alarms of all pairs at the given and at the calibrated thresholds.
std::string calibration_text(const Calibration& calibration, double threshold, std::size_t runs);

}  // namespace ridgeline
