#pragma once
// The einsum pieces of every report format (analysis/einsum_comparison.hpp): per
// contraction, one table of its lowerings and two lines, the best lowering's lead and what
// the notation hides. Formatted only.
#include <string>

#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/roofline_style.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

// Lowering, time per call, GFLOP/s, compulsory and added bytes, share of the roof, bound,
// time over the best's, how it ran (or why it did not).
Table einsum_table(const EinsumComparison& c);
// "bthr,bThr->bhtT b=8,… f32, 2 threads".
std::string einsum_title(const EinsumComparison& c);
// "best cpu.strided: 1.38× faster than a framework's transpose-GEMM-transpose (cpu.ttgt), 47×
// the slowest (cpu.loops)", or why nothing ran.
std::string einsum_lead(const EinsumComparison& c);

// Per contraction, a bar per lowering that ran: its rate, the best first; TTGT's bar cut by
// its steps, the permutes pale (einsum_bars_svg.cpp). "" where none ran.
std::string einsum_bars_svg(const EinsumComparison& c, const BackendColours& colours);

std::string einsum_html(const ReportInput& in, const BackendColours& colours);
std::string einsum_markdown(const ReportInput& in);

}  // namespace ridgeline::reports
