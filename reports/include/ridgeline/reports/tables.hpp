#pragma once
// The report's tables as data: the HTML report renders them as <table>s and the dashboard
// as table views, so both show the same columns and the same text. A numeric cell carries
// its value for sorting.
#include <cmath>
#include <string>
#include <vector>

#include "ridgeline/analysis/sweep_scene.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

struct TableCell {
  std::string text;
  double value = NAN;  // a numeric cell's value (sorts it); NaN: text
  bool alarm = false;  // a value to look at (above its roof): red, or bold in Markdown
  // A cell of several lines (a case's notes), each escaped on its own and shown one per
  // line (HTML, dashboard) or joined by "; " (Markdown); `text` holds them joined by "; ".
  std::vector<std::string> lines;
  std::string colour;   // shown in this colour (a verdict's: "#e03131"); "" the default
  std::string tooltip;  // more than the cell shows (a compact case name's full id); "" none
};

struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<TableCell>> rows;
};

// Each compute ceiling: name (method), threads or GPU, measured, theoretical (or why none),
// measured ÷ theoretical, source.
Table compute_ceilings_table(const MachineModel& machine);
// Each memory ceiling: level, kernel, instructions, threads or GPU, bandwidth, working set,
// source.
Table memory_ceilings_table(const MachineModel& machine);
// Each level the probe's sweeps found: level, sweep, threads, plateau, bandwidth, where it
// steps down, hwloc's size, which size is used (hwloc's confirmed or kept as inconclusive, or
// the measured one), and the evidence for that.
Table measured_levels_table(const MachineModel& machine);
// Each rung of the ladder against the best BLAS per problem.
Table ladder_table(const ReportInput& input);
// Each collector of the run: name, available or not, its validation, the reason.
Table collectors_table(const RunContext& context);
// One case's rate, power and clock per input pattern.
Table pattern_table(const ReportInput& input);
// What the GPU sustains at its power cap per dtype and input pattern: dtype, pattern, GFLOP/s,
// power, GFLOP/J, the case that measured it.
Table power_cap_table(const ReportInput& input);
// An unfused chain pass by pass: pass, time, share of the chain, bytes, bandwidth,
// intensity, GFLOP/s, bound, fraction of that roof, and whether it is below the floor.
Table unfused_pass_table(const UnfusedChain& chain);
// "softmax rows=8,cols=8 f32, pattern normal, 2 threads, cpu.unfused": what a pass table shows.
std::string unfused_chain_title(const UnfusedChain& chain);
// "passes 98.1 ms of the case's 99.0 ms per call; 97% of it in memory-bound passes".
std::string unfused_chain_summary(const UnfusedChain& chain);

// One contraction's einsum lowerings (analysis/einsum_comparison.hpp): lowering, time per
// call, GFLOP/s, compulsory and added bytes, share of the roof, bound, time over the best's,
// how it ran (or why it did not).
Table einsum_table(const EinsumComparison& c);
// "bthr,bThr->bhtT b=8,… f32, 2 threads" (a GPU's: "…, GPU").
std::string einsum_title(const EinsumComparison& c);
// "best cpu.strided: 1.38× faster than a framework's transpose-GEMM-transpose (cpu.ttgt), 47×
// the slowest (cpu.loops)", or why nothing ran.
std::string einsum_lead(const EinsumComparison& c);
// The steps without FLOPs (the permutes) of every lowering that lapped its steps, each a
// mark at its working set (the bytes it reads and writes) and bandwidth, labelled with the
// step: what the report and the dashboard draw beside the probe's bandwidth sweeps.
std::vector<BandwidthMark> einsum_permute_marks(const EinsumComparison& c);
// One network's contraction paths: path, FLOPs, bytes, × fewest FLOPs, time at the roof,
// measured time, × fastest, its steps with the fastest lowering of each.
Table einsum_paths_table(const EinsumNetworkComparison& n);
// "ij,jk,kl->il i=1000,… f32, 2 threads: contraction paths, predicted (…) and measured".
std::string einsum_network_title(const EinsumNetworkComparison& n);
// The verdicts under the table (paths, roofline, framework), or the reason the network is
// not one.
std::vector<std::string> einsum_network_lines(const EinsumNetworkComparison& n);

}  // namespace ridgeline
