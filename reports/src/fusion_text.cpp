// The fusion tables' cells (shared by HTML and Markdown), the Markdown section and the
// terminal lines.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

#include "fusion_sections.hpp"
#include "markdown_table.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/tables.hpp"
#include "table_cells.hpp"

namespace ridgeline::reports {

namespace {

TableCell bytes_cell(const FusionSide& s) {
  std::vector<std::string> parts;
  if (s.analytic.value > 0) parts.push_back(si_rate(s.analytic.value, "B") + " analytic");
  if (s.counted.value > 0)
    parts.push_back(
        fmt::format("{} {}", si_rate(s.counted.value, "B"), to_string(s.counted.source)));
  if (parts.empty()) return none();
  return number(s.analytic.value > 0 ? s.analytic.value : s.counted.value,
                fmt::format("{}", fmt::join(parts, "; ")));
}

TableCell time_cell(const FusionSide& s) {
  return s.seconds > 0 ? number(s.seconds, duration(s.seconds)) : none();
}

TableCell roof_cell(const FusionSide& s) {
  return s.memory_roof > 0 ? number(s.memory_roof, percent(s.memory_roof) + " of " + s.roof_level)
                           : none();
}

// "1.2 mJ → 0.41 mJ: 2.9× less (gpu)", sorted by the ratio.
TableCell energy_cell(const FusionPair& p) {
  if (p.energy_ratio <= 0) return none();
  return number(p.energy_ratio,
                fmt::format("{} → {}: {} {} ({})", energy(p.unfused.joules), energy(p.fused.joules),
                            times(p.energy_ratio >= 1 ? p.energy_ratio : 1 / p.energy_ratio),
                            p.energy_ratio >= 1 ? "less" : "more", p.energy_domain));
}

TableCell ratio_cell(double r) {
  return r > 0 ? number(r, times(r)) : none();
}

std::string who(Device device, int threads) {
  return device == Device::gpu ? std::string(display_name(device))
                               : fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
}

std::vector<TableCell> pair_cells(const FusionPair& p) {
  TableCell bytes = ratio_cell(p.byte_ratio);
  if (p.counted_byte_ratio > 0)
    bytes.text += fmt::format(" ({} counted)", times(p.counted_byte_ratio));
  return {text(p.op + " " + p.params),
          text(p.dtype),
          text(p.pattern),
          p.device == Device::gpu ? text(std::string(display_name(p.device)))
                                  : number(p.threads, std::to_string(p.threads)),
          bytes_cell(p.unfused),
          bytes_cell(p.fused),
          bytes,
          time_cell(p.unfused),
          time_cell(p.fused),
          ratio_cell(p.speedup),
          p.time_over_bytes > 0 ? number(p.time_over_bytes, fixed(p.time_over_bytes, 2)) : none(),
          roof_cell(p.unfused),
          roof_cell(p.fused),
          energy_cell(p),
          text(fmt::format("{}", fmt::join(p.notes, "; ")))};
}

}  // namespace

Table fusion_pair_table(const FusionAnalysis& fusion) {
  Table t{{"problem", "dtype", "pattern", "threads", "unfused bytes", "fused bytes",
           "bytes unfused ÷ fused", "unfused time", "fused time", "speedup (time unfused ÷ fused)",
           "speedup ÷ byte ratio", "unfused: memory roof", "fused: memory roof",
           "energy per call (unfused → fused)", "notes"},
          {}};
  for (const auto& p : fusion.pairs) t.rows.push_back(pair_cells(p));
  return t;
}

Table fusion_unpaired_table(const FusionAnalysis& fusion) {
  Table t{{"case", "backend", "form", "why"}, {}};
  for (const auto& u : fusion.unpaired)
    t.rows.push_back(
        {text(u.name), text(u.backend), text(u.fused ? "fused" : "unfused"), text(u.reason)});
  return t;
}

Table sweep_table(const std::vector<const EltwiseSweep*>& group) {
  Table t{{"backend", "L", "time", "GFLOP/s", "intensity (FLOP/B)"}, {}};
  for (const EltwiseSweep* s : group)
    for (const auto& p : s->points)
      t.rows.push_back({text(s->backend), number(p.length, std::to_string(p.length)),
                        number(p.seconds, duration(p.seconds)),
                        number(p.achieved, gflops(p.achieved)),
                        number(p.intensity, intensity(p.intensity))});
  return t;
}

std::string sweep_title(const EltwiseSweep& s) {
  return fmt::format("eltwise_chain {} {}, pattern {}, {}", s.dtype, s.params, s.pattern,
                     who(s.device, s.threads));
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
