// The table `ridgeline profile` prints: one row per case, each column as wide as its
// widest cell (a long case name never pushes the numbers out of line), the notes of a
// case indented under it. Every string from the run is shown with visible escapes.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "format.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

using namespace reports;

namespace {

using Row = std::array<std::string, 5>;  // case, GFLOP/s, AI, efficiency, bound or why

// Characters a terminal shows: UTF-8 code points (escape_visible left no control ones).
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t to, bool right) {
  const std::string fill(to > width(s) ? to - width(s) : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string terminal_summary(const ReportInput& in) {
  std::vector<Row> rows{{"case", "GFLOP/s", "AI", "eff.", "bound"}};
  std::vector<std::vector<std::string>> notes{{}};
  for (const auto& p : in.placements) {
    const std::string name = escape_visible(p.name);
    if (!p.placeable) {
      rows.push_back({name, "—", "—", "—", "not placeable: " + escape_visible(p.reason)});
    } else {
      double ai = 0;
      for (const auto& [level, v] : p.intensity) ai = v;
      rows.push_back({name, gflops(p.achieved), intensity(ai),
                      p.attainable > 0 ? percent(p.efficiency) : "—",
                      escape_visible(p.bound) + (p.above_roof ? " (above roof)" : "")});
    }
    notes.emplace_back();
    for (const auto& n : p.notes)
      notes.back().push_back(fmt::format("{}: {}", to_string(n.kind), escape_visible(n.text)));
  }
  std::array<std::size_t, 5> widths{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) widths[c] = std::max(widths[c], width(r[c]));
  std::string s;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    s += pad(r[0], widths[0], false) + "  " + pad(r[1], widths[1], true) + "  " +
         pad(r[2], widths[2], true) + "  " + pad(r[3], widths[3], true) + "  " + r[4] + "\n";
    for (const auto& n : notes[i]) s += "    " + n + "\n";
  }
  return s;
}

}  // namespace ridgeline
