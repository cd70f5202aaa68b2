// The fusion tables from their columns (fusion_columns.cpp), the Markdown section and the
// terminal lines.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

#include "fusion_sections.hpp"
#include "markdown_table.hpp"
#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/table_columns.hpp"
#include "ridgeline/reports/tables.hpp"
#include "table_cells.hpp"

namespace ridgeline::reports {

namespace {}  // namespace

Table fusion_pair_table(const FusionAnalysis& fusion) {
  std::vector<FusionRow> rows;
  for (const auto& p : fusion.pairs) rows.push_back({&p, nullptr});
  return table_of(fusion_columns(), rows);
}

Table fusion_unpaired_table(const FusionAnalysis& fusion) {
  Table t{{"case", "backend", "form", "why"}, {}};
  for (const auto& u : fusion.unpaired)
    t.rows.push_back(
        {text(u.name), text(u.backend), text(u.fused ? "fused" : "unfused"), text(u.reason)});
  return t;
}

Table sweep_table(const std::vector<const EltwiseSweep*>& group) {
  std::vector<SweepRow> rows;
  for (const EltwiseSweep* s : group)
    for (const auto& p : s->points) rows.push_back({s, &p});
  return table_of(sweep_columns(), rows);
}

std::string sweep_title(const EltwiseSweep& s) {
  return fmt::format("eltwise_chain {} {}, pattern {}, {}", s.dtype, s.params, s.pattern,
                     where_ran(s.device, s.threads));
}

std::string ridge_text(const EltwiseSweep& s) {
  if (s.ridge_length <= 0) return s.backend + ": " + s.ridge_note;
  return fmt::format("{}: ridge at L ≈ {:.3g}{} — {}", s.backend, s.ridge_length,
                     s.ridge_extrapolated ? " (extrapolated)" : "", s.ridge_note);
}

std::vector<std::vector<const EltwiseSweep*>> sweep_groups(const FusionAnalysis& fusion) {
  std::vector<std::vector<const EltwiseSweep*>> groups;
  std::map<std::tuple<std::string, std::string, int, Device, std::string>, std::size_t> at;
  for (const auto& s : fusion.eltwise_sweeps) {
    const auto [it, added] =
        at.try_emplace({s.dtype, s.pattern, s.threads, s.device, s.params}, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(&s);
  }
  return groups;
}

std::string fusion_markdown(const ReportInput& in) {
  const FusionAnalysis& f = in.fusion;
  if (f.empty()) return "";
  std::string s =
      "\n## Fusion: unfused → fused\n\nEach fused case beside its unfused twin (same op, params, "
      "dtype, pattern, threads); bytes per call from the op's model (analytic) and from "
      "counters where measured.\n\n";
  if (!f.pairs.empty()) s += markdown_table(fusion_pair_table(f));
  if (!f.unpaired.empty())
    s += "\n### Without a twin\n\n" + markdown_table(fusion_unpaired_table(f));
  for (const auto& group : sweep_groups(f)) {
    s += fmt::format("\n### {}\n\n", escape_markdown_cell(sweep_title(*group.front())));
    s += markdown_table(sweep_table(group)) + "\n";
    for (const EltwiseSweep* sw : group)
      s += fmt::format("- {}\n", escape_markdown_cell(ridge_text(*sw)));
  }
  for (const auto& c : f.chains) {
    s += fmt::format("\n### Passes of {}\n\n{}.\n\n", escape_markdown_cell(unfused_chain_title(c)),
                     escape_markdown_cell(unfused_chain_summary(c)));
    s += markdown_table(unfused_pass_table(c));
    for (const auto& n : c.notes) s += fmt::format("- {}\n", escape_markdown_cell(n));
  }
  return s;
}

std::string fusion_terminal(const ReportInput& in) {
  const FusionAnalysis& f = in.fusion;
  if (f.pairs.empty() && f.unpaired.empty()) return "";
  std::vector<TextRow> rows;
  for (const auto& p : f.pairs)
    rows.push_back({escape_visible(fmt::format("{} {} {}", p.op, p.params, p.dtype)),
                    p.device == Device::gpu ? std::string(display_name(p.device))
                                            : fmt::format("{}t", p.threads),
                    p.speedup > 0 ? "speedup " + times(p.speedup) : "—",
                    p.byte_ratio > 0 ? "bytes " + times(p.byte_ratio) : "—",
                    p.time_over_bytes > 0 ? "time/bytes " + fixed(p.time_over_bytes, 2) : "—",
                    p.fused.memory_roof > 0
                        ? fmt::format("fused {} of {} roof", percent(p.fused.memory_roof),
                                      escape_visible(p.fused.roof_level))
                        : ""});
  std::string s = "\nfusion, unfused → fused:\n" + format_columns(rows, "  ", {2, 3, 4});
  if (!f.unpaired.empty())
    s += fmt::format("  {} fused or unfused case{} without a twin (listed in the report)\n",
                     f.unpaired.size(), f.unpaired.size() == 1 ? "" : "s");
  // The passes that lose, by chain: the rest of each chain is in the report.
  for (const auto& c : f.chains)
    for (const auto& p : c.passes)
      if (p.below_floor)
        s += escape_visible(fmt::format("  {} {} {} {}t: pass {} at {} of its {} roof ({} of the "
                                        "chain)",
                                        c.op, c.params, c.backend, c.threads, p.name,
                                        fixed(p.roof, 2), to_string(p.bound), percent(p.share))) +
             "\n";
  return s;
}

}  // namespace ridgeline::reports
