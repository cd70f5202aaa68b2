// Markdown (fit for a CI job summary) and CSV: the same numbers as the HTML report.
#include <fmt/format.h>

#include "einsum_sections.hpp"
#include "fusion_sections.hpp"
#include "markdown_table.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/overview.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/results_table.hpp"

namespace ridgeline {

using namespace reports;

namespace {

// Results in the HTML report's groups: a table per op of the unfolded columns, each case by
// its compact name, then the folded columns of every case by its full id.
std::string results_markdown(const std::vector<RooflinePlacement>& placements) {
  const std::vector<OpResults> by_op = results_by_op(placements);
  std::string s = "## Results\n";
  for (const auto& r : by_op)
    s += "\n### " + escape_markdown_cell(r.op) + "\n\n" +
         markdown_table(results_columns(r.table, false));
  if (by_op.empty()) return s + "\nNo case was placed.\n";
  s += "\n### Timing spread, units and provenance\n\n";
  std::string header;
  for (const auto& r : by_op) {
    const Table folded = results_columns(r.table, true);
    s += header.empty() ? markdown_header(folded) : "";
    header = "written";
    for (const auto& row : folded.rows) s += markdown_row(row);
  }
  return s;
}

}  // namespace

std::string markdown_report(const ReportInput& in) {
  auto md = [](const std::string& s) { return escape_markdown_cell(s); };
  std::string s = "# Ridgeline report\n\n";
  s += fmt::format("{} — {} on {}{}\n\n", md(in.run_origin), md(in.run.context.date),
                   md(in.run.context.host_name),
                   in.run.context.interrupted ? " — **the run was interrupted**" : "");
  for (const auto& note : in.run.notes) s += "Reading the input: " + md(note) + "\n\n";
  if (!in.load_warning.empty()) s += "**The machine was busy:** " + md(in.load_warning) + ".\n\n";
  s += overview_markdown(in);
  if (in.machine) {
    const MachineModel& m = *in.machine;
    s += fmt::format("Machine: {}, {} cores, {} MHz measured (ceilings from {}).\n\n",
                     md(m.cpu_model), m.cores, fixed(m.measured_clock_hz / 1e6, 0),
                     md(in.machine_origin));
    for (const auto& g : m.gpus)
      s += fmt::format("GPU {}: {}, sm_{}, {} SMs.\n\n", g.index, md(g.name), g.compute_capability,
                       g.multiprocessors);
    s.append(markdown_table(compute_ceilings_table(m))).append("\n");
    s.append(markdown_table(memory_ceilings_table(m)));
    if (!m.levels.empty()) s.append("\n").append(markdown_table(measured_levels_table(m)));
    s += "\n";
  } else {
    s += "No machine model: " + md(in.machine_origin) + "\n\n";
  }
  s += results_markdown(in.placements);
  s += reports::fusion_markdown(in);
  s += reports::einsum_markdown(in);
  if (!in.ladder.empty())
    s += "\n## Ladder against the best BLAS\n\n" + markdown_table(ladder_table(in));
  if (!in.patterns.empty()) s += "\n## Input data\n\n" + markdown_table(pattern_table(in));
  if (!in.power_caps.empty())
    s += "\n### Compute at the power cap\n\n" + markdown_table(power_cap_table(in));
  if (const Table unplaced = unplaced_table(in.placements); !unplaced.rows.empty())
    s += "\n## Not placeable\n\n" + markdown_table(unplaced);
  if (!in.run.context.collectors.empty())
    s += "\n## Collectors\n\n" + markdown_table(collectors_table(in.run.context));
  return s + "\n" + md(version_line(in)) + "\n";
}

std::string csv_report(const ReportInput& in) {
  const auto& fields = results_csv_fields();
  std::string s;
  for (const auto& f : fields) s.append(s.empty() ? "" : ",").append(f.name);
  s += "\n";
  for (const auto& p : in.placements) {
    for (std::size_t i = 0; i < fields.size(); ++i)
      s.append(i > 0 ? "," : "").append(escape_csv_field(fields[i].value(p)));
    s += "\n";
  }
  return s;
}

}  // namespace ridgeline
