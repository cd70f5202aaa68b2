#pragma once
// The fusion pieces of every report format: the pairs, the unpaired cases and the eltwise
// chain's sweeps (analysis/fusion.hpp), formatted only.
#include <string>
#include <vector>

#include "ridgeline/reports/report.hpp"
#include "roofline_svg.hpp"

namespace ridgeline::reports {

// A cell: its value for sorting (NaN for text and for none) and its text.
struct FusionCell {
  double value;
  std::string text;
};

// The pair table's columns, shared by HTML and Markdown.
const std::vector<std::string>& pair_headers();
std::vector<FusionCell> pair_cells(const FusionPair& pair);
// The sweep table's columns: backend, threads, L, time, GFLOP/s, intensity.
const std::vector<std::string>& sweep_headers();
std::vector<FusionCell> sweep_cells(const EltwiseSweep& sweep, const EltwiseSweepPoint& point);
// "eltwise_chain f32 n=33554432, pattern normal, 1 thread (cpu)": what a sweep plot shows.
std::string sweep_title(const EltwiseSweep& sweep);
// "cpu.fused: L ≈ 21.3 (extrapolated): below the DRAM ridge ...", or the note alone.
std::string ridge_text(const EltwiseSweep& sweep);
// The sweeps in groups of one problem (all but the backend equal), in order.
std::vector<std::vector<const EltwiseSweep*>> sweep_groups(const FusionAnalysis& fusion);

// The roofline's arrow for a pair: dark grey, the pair, its backends, speedup and byte ratio.
ArrowMark fusion_arrow_mark(const FusionPair& pair);
// HTML: the fusion section with its tables and one sweep plot per group; "" when the run
// has no fused or unfused case.
std::string fusion_html(const ReportInput& in, const BackendColours& colours);
// The eltwise chain's plot for one group: time (top) and intensity (bottom) against L on
// a log2 axis, one line per backend, the ridge intensity and the ridge L marked.
std::string sweep_svg(const std::vector<const EltwiseSweep*>& group, const BackendColours& colours);
// Markdown: the same tables; "" without any.
std::string fusion_markdown(const ReportInput& in);
// The terminal: one line per pair; "" without any.
std::string fusion_terminal(const ReportInput& in);

}  // namespace ridgeline::reports
