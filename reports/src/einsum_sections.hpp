#pragma once
// The einsum pieces of the HTML and Markdown reports (analysis/einsum_comparison.hpp): per
// contraction, the table and lines of tables.hpp and the bar chart. Formatted only.
#include <string>

#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/roofline_style.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

// Per contraction, a bar per lowering that ran: its rate, the best first; TTGT's bar cut by
// its steps, the permutes pale (einsum_bars_svg.cpp). "" where none ran.
std::string einsum_bars_svg(const EinsumComparison& c, const BackendColours& colours);

std::string einsum_html(const ReportInput& in, const BackendColours& colours);
// Each network's paths table and its verdicts (einsum_paths_text.cpp), first in the
// section; "" without networks.
std::string einsum_networks_html(const ReportInput& in);
std::string einsum_networks_markdown(const ReportInput& in);
std::string einsum_networks_terminal(const ReportInput& in);
// A table's cells as the terminal's rows (format_columns), each escaped.
std::vector<TextRow> text_rows(const Table& t);
std::string einsum_markdown(const ReportInput& in);

}  // namespace ridgeline::reports
