// The einsum section: the lowerings' table from its columns (einsum_columns.cpp), and every
// printer rendering it.
#include <fmt/format.h>

#include "einsum_sections.hpp"
#include "html_cells.hpp"
#include "markdown_table.hpp"
#include "memory_sweep_svg.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/table_columns.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using namespace reports;

// "cpu.ttgt permute_A: 557 µs, 4.19 MB at 7.53 GB/s, 11% of its L3 roof": one lapped step.
std::string step_text(const EinsumLowering& l, const PassPoint& p) {
  return fmt::format(
      "{} {}: {}, {} at {}/s{}", l.backend, p.name, duration(p.seconds), si_rate(p.bytes, "B"),
      si_rate(p.bandwidth, "B"),
      p.roof > 0 ? fmt::format(", {} of its {} roof", percent(p.roof), to_string(p.bound)) : "");
}

}  // namespace

std::vector<BandwidthMark> einsum_permute_marks(const EinsumComparison& c) {
  std::vector<BandwidthMark> marks;
  for (const EinsumLowering& l : c.lowerings)
    if (l.passes)
      for (const PassPoint& p : l.passes->passes)
        if (p.flops == 0 && p.bytes > 0 && p.bandwidth > 0)
          marks.push_back({p.name, l.backend, p.bytes, p.bandwidth, step_text(l, p)});
  return marks;
}

Table einsum_table(const EinsumComparison& c) {
  std::vector<EinsumRow> rows;
  for (const EinsumLowering& l : c.lowerings) rows.push_back({&c, &l});
  return table_of(einsum_columns(), rows);
}

std::string einsum_title(const EinsumComparison& c) {
  return fmt::format("{} {} {}, {}", c.equation, c.extents, c.dtype,
                     where_ran(c.device, c.threads));
}

std::string einsum_lead(const EinsumComparison& c) {
  if (c.best.empty()) return "no lowering ran";
  std::string s = "best " + c.best;
  std::vector<std::string> leads;
  if (c.lead_over_framework > 0 && c.best != c.framework)
    leads.push_back(fmt::format("{} faster than a framework's transpose-GEMM-transpose ({})",
                                times(c.lead_over_framework), c.framework));
  if (c.lead_over_worst > 0 && c.worst != c.best)
    leads.push_back(
        fmt::format("{} faster than the slowest ({})", times(c.lead_over_worst), c.worst));
  if (!leads.empty()) s += ": " + fmt::format("{}", fmt::join(leads, ", "));
  return s;
}

}  // namespace ridgeline

namespace ridgeline::reports {

std::string einsum_html(const ReportInput& in, const BackendColours& colours) {
  if (in.einsum.empty()) return "";
  std::string s =
      "<h2>einsum</h2><p class=\"meta\">Each contraction's lowerings side by side: the bytes a "
      "lowering adds (transposes written and read back) are in its roofline point's "
      "intensity. The bars: each lowering's rate, TTGT's cut by its steps (the permutes "
      "pale).</p>" +
      einsum_networks_html(in);
  for (const auto& c : in.einsum) {
    s += fmt::format(
        "<h3>{}</h3>{}{}<p>{}</p>", escape_html(einsum_title(c)), einsum_bars_svg(c, colours),
        html_table(einsum_table(c), "<table class=\"sortable\">"), escape_html(einsum_lead(c)));
    if (!c.hides.empty()) s += fmt::format("<p>{}</p>", escape_html(c.hides));
    for (const auto& l : c.lowerings)
      if (l.passes)
        s += fmt::format("<p>{} step by step:</p>{}", escape_html(l.backend),
                         html_table(unfused_pass_table(*l.passes), "<table>"));
    // The permutes have no FLOPs, so no place on the roofline: each is a point of its own
    // beside the probe's bandwidth sweeps, at its working set.
    if (const std::vector<BandwidthMark> marks = einsum_permute_marks(c);
        !marks.empty() && in.machine)
      if (const std::string svg = memory_sweep_svg(*in.machine, marks, colours); !svg.empty())
        s += "<p>The permutes beside the probe's bandwidth sweeps, each at its working set "
             "(the bytes it reads and writes):</p>" +
             svg;
  }
  return s;
}

std::string einsum_markdown(const ReportInput& in) {
  if (in.einsum.empty()) return "";
  std::string s = "\n## einsum\n" + einsum_networks_markdown(in);
  for (const auto& c : in.einsum) {
    s += fmt::format("\n### {}\n\n{}\n{}\n", escape_markdown_cell(einsum_title(c)),
                     markdown_table(einsum_table(c)), escape_markdown_cell(einsum_lead(c)));
    if (!c.hides.empty()) s += fmt::format("\n{}\n", escape_markdown_cell(c.hides));
    for (const auto& l : c.lowerings)
      if (l.passes)
        s += fmt::format("\n{} step by step:\n\n{}", escape_markdown_cell(l.backend),
                         markdown_table(unfused_pass_table(*l.passes)));
  }
  return s;
}

}  // namespace ridgeline::reports

namespace ridgeline {

std::string einsum_csv(const ReportInput& in) {
  std::vector<EinsumRow> rows;
  for (const auto& c : in.einsum)
    for (const auto& l : c.lowerings) rows.push_back({&c, &l});
  return csv_of(einsum_columns(), rows);
}

std::string einsum_paths_csv(const ReportInput& in) {
  std::vector<EinsumPathRow> rows;
  for (const EinsumNetworkComparison& n : in.einsum_networks)
    if (n.error.empty())
      for (const MeasuredPath& m : n.paths) rows.push_back({&n, &m});
  return csv_of(einsum_path_columns(), rows);
}

std::string einsum_terminal(const ReportInput& in) {
  using namespace reports;
  std::string s = einsum_networks_terminal(in);
  for (const auto& c : in.einsum) {
    s += fmt::format("\n{}:\n{}  {}\n", escape_visible(einsum_title(c)),
                     format_columns(text_rows(einsum_table(c)), "  ", {1, 2, 3, 4, 5, 7}),
                     escape_visible(einsum_lead(c)));
    if (!c.hides.empty()) s += fmt::format("  {}\n", escape_visible(c.hides));
    for (const auto& l : c.lowerings)
      if (l.passes)
        for (const PassPoint& p : l.passes->passes)
          s += "  " + escape_visible(step_text(l, p)) + "\n";
  }
  return s;
}

}  // namespace ridgeline
