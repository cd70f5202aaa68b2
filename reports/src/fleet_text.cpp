// The fleet's tables (shared by HTML and Markdown), the terminal lines and the Markdown page.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "markdown_table.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/fleet.hpp"
#include "ridgeline/reports/format.hpp"
#include "table_cells.hpp"

namespace ridgeline {

using namespace reports;

namespace {

// "+5.1% (+4.2 … +6.0%)": a ratio as a change with its interval.
std::string change_with_interval(const FleetCell& c) {
  const auto pc = [](double r) { return fmt::format("{:+.1f}", (r - 1) * 100); };
  return fmt::format("{}% ({} … {}%)", pc(c.ratio), pc(c.low), pc(c.high));
}

std::string member_verdict(const FleetNode& n) {
  return n.out_of_family ? "out of family" : "in family";
}

// The member's case farthest from the rest among those found slower or faster.
const FleetCell* farthest(const FleetNode& n, std::size_t& index) {
  const FleetCell* best = nullptr;
  for (std::size_t c = 0; c < n.cells.size(); ++c) {
    const FleetCell& cell = n.cells[c];
    if (cell.verdict != FleetVerdict::slower && cell.verdict != FleetVerdict::faster) continue;
    if (!best || std::abs(std::log(cell.ratio)) > std::abs(std::log(best->ratio))) {
      best = &cell;
      index = c;
    }
  }
  return best;
}

std::string ceilings_out(const Fleet& fleet, const FleetNode& n) {
  std::string s;
  for (std::size_t c : n.ceilings_out)
    s += fmt::format("{}{} {:+.0f}%", s.empty() ? "" : "; ", fleet.ceilings[c].name,
                     (n.ceilings[c] - 1) * 100);
  return s;
}

std::vector<TableCell> member_cells(const Fleet& fleet, const FleetNode& n) {
  std::size_t c = 0;
  const FleetCell* far = farthest(n, c);
  TableCell verdict = text(member_verdict(n));
  verdict.alarm = n.out_of_family;
  const auto count = [](int v) { return number(v, std::to_string(v)); };
  return {text(n.name),
          verdict,
          count(n.slower),
          count(n.faster),
          count(n.same),
          count(n.inconclusive),
          count(n.untested),
          far ? text(fleet.cases[c].name) : text(""),
          far ? number(far->ratio, change_with_interval(*far)) : none(),
          text(ceilings_out(fleet, n)),
          text(n.summary)};
}

std::string fleet_heading(const FleetView& view) {
  const Fleet& f = view.fleet;
  return fmt::format(
      "fleet: {} {}s, {} cases, {} tests (Mann–Whitney against the other {}s pooled, Holm at "
      "{}, margin ±{}%): {} out of family",
      f.nodes.size(), f.member_kind, f.cases.size(), f.tested, f.member_kind, f.settings.alpha,
      f.settings.margin * 100, f.out_of_family);
}

}  // namespace

Table fleet_member_table(const Fleet& fleet) {
  Table t{{fleet.member_kind, "verdict", "slower", "faster", "same", "inconclusive", "untested",
           "farthest case", "its time against the rest", "ceilings out", "summary"},
          {}};
  for (const auto& n : fleet.nodes) t.rows.push_back(member_cells(fleet, n));
  return t;
}

Table fleet_case_table(const Fleet& fleet) {
  Table t{{"case", "bound", fleet.member_kind + "s", "median time", "slower", "faster"}, {}};
  for (std::size_t c = 0; c < fleet.cases.size(); ++c) {
    const FleetCase& k = fleet.cases[c];
    std::vector<std::string> slower, faster;
    for (const auto& n : fleet.nodes) {
      if (n.cells[c].verdict == FleetVerdict::slower) slower.push_back(n.name);
      if (n.cells[c].verdict == FleetVerdict::faster) faster.push_back(n.name);
    }
    TableCell slow = text(fmt::format("{}", fmt::join(slower, ", ")));
    slow.alarm = !slower.empty();
    t.rows.push_back(
        {text(k.name), text(k.bound), number(k.nodes, std::to_string(k.nodes)),
         k.median_seconds > 0 ? number(k.median_seconds, duration(k.median_seconds)) : none(), slow,
         text(fmt::format("{}", fmt::join(faster, ", ")))});
  }
  return t;
}

Table fleet_ceiling_table(const Fleet& fleet) {
  Table t{{"ceiling", fleet.member_kind + "s", "median", "lowest", "highest"}, {}};
  for (std::size_t c = 0; c < fleet.ceilings.size(); ++c) {
    const FleetCeiling& k = fleet.ceilings[c];
    double lo = 0, hi = 0;
    std::string lo_name, hi_name;
    for (const auto& n : fleet.nodes) {
      const double r = n.ceilings[c];
      if (r <= 0) continue;
      if (lo_name.empty() || r < lo) lo = r, lo_name = n.name;
      if (hi_name.empty() || r > hi) hi = r, hi_name = n.name;
    }
    const auto member = [&](double r, const std::string& name) {
      if (lo_name.empty()) return none();
      // Every member at one value: no member is the lowest or the highest.
      return number(r, fmt::format("{:+.1f}% ({})", (r - 1) * 100,
                                   lo == hi ? "every " + fleet.member_kind : name));
    };
    t.rows.push_back({text(k.name), number(k.nodes, std::to_string(k.nodes)),
                      number(k.median, si_rate(k.median, k.unit)), member(lo, lo_name),
                      member(hi, hi_name)});
  }
  return t;
}

std::string fleet_text(const FleetView& view) {
  const Fleet& f = view.fleet;
  std::string s = fleet_heading(view) + "\n";
  for (const auto& note : f.notes) s += "note: " + visible_line(note, 400) + "\n";
  std::vector<TextRow> rows = {{f.member_kind, "verdict", "slower", "faster", "summary"}};
  int in_family = 0;
  for (const auto& n : f.nodes) {
    if (!n.out_of_family && !view.all) {
      ++in_family;
      continue;
    }
    rows.push_back({visible_line(n.name, 80), member_verdict(n), std::to_string(n.slower),
                    std::to_string(n.faster), visible_line(n.summary, 400)});
  }
  if (rows.size() > 1) s += format_columns(rows, "  ", {2, 3});
  if (in_family > 0)
    s += fmt::format("  {} {}{} in family (--all lists them)\n", in_family, f.member_kind,
                     in_family == 1 ? "" : "s");
  return s;
}

std::string fleet_markdown(const FleetView& view) {
  const Fleet& f = view.fleet;
  std::string s = "# Ridgeline fleet\n\n" + escape_markdown_cell(fleet_heading(view)) + "\n\n";
  for (const auto& note : f.notes) s += "- " + escape_markdown_cell(note) + "\n";
  if (!f.notes.empty()) s += "\n";
  s += "## " + f.member_kind + "s\n\n" + markdown_table(fleet_member_table(f)) + "\n";
  s += "## Cases\n\n" + markdown_table(fleet_case_table(f)) + "\n";
  if (!f.ceilings.empty())
    s += "## Probed ceilings\n\n" + markdown_table(fleet_ceiling_table(f)) + "\n";
  return s;
}

}  // namespace ridgeline
