#pragma once
// The fusion pieces of every report format: the pairs, the unpaired cases and the eltwise
// chain's sweeps (analysis/fusion.hpp), formatted only.
#include <string>
#include <vector>

#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/tables.hpp"
#include "roofline_svg.hpp"

namespace ridgeline::reports {

// The pair table: problem, dtype, pattern, threads (or GPU), bytes, time and memory roof of
// each side, the byte ratio, the speedup and its ratio to the byte ratio, energy, notes.
Table fusion_pair_table(const FusionAnalysis& fusion);
// The fused or unfused cases without a twin: case, backend, form, why.
Table fusion_unpaired_table(const FusionAnalysis& fusion);
// One sweep group's points: backend, L, time, GFLOP/s, intensity.
Table sweep_table(const std::vector<const EltwiseSweep*>& group);
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
