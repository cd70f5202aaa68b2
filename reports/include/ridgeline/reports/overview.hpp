#pragma once
// The first screen (analysis/overview.hpp) as tables and lines that the HTML, Markdown and
// terminal reports and the dashboard's Overview tab all show the same way.
#include <string>
#include <vector>

#include "ridgeline/analysis/overview.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline {

// The machine's roofs: one row per dtype and unit (peak) and per memory level (bandwidth),
// at the most threads the probe used.
Table overview_roofs_table(const Overview& overview);
// Each op and dtype: the fastest kernel, its problem, rate, share of its roof and what binds it.
Table overview_best_table(const Overview& overview,
                          const std::vector<RooflinePlacement>& placements);
// The `limit` problems where our fastest kernel trails the fastest vendor's most.
Table overview_gaps_table(const Overview& overview,
                          const std::vector<RooflinePlacement>& placements, std::size_t limit);
// One line per kind of concern: "noisy timing: 3 cases (cpu.naive f32 …, …) — why".
std::vector<std::string> overview_concern_lines(const Overview& overview);
// One line per fusion pair: "softmax f32 …: fused 2.31× faster, 3.00× fewer bytes (48 MiB saved)".
std::vector<std::string> overview_fusion_lines(const Overview& overview);
// The machine in a line: "Intel Xeon …, family 6 model 207 (0xcf), 2 cores, 2.10 GHz measured".
std::string overview_machine_line(const Overview& overview);

// The first screen as an HTML fragment (<section id="overview">), as the report opens.
std::string overview_html(const ReportInput& input);
std::string overview_markdown(const ReportInput& input);
std::string overview_terminal(const ReportInput& input);

}  // namespace ridgeline
