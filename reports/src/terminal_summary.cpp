// The table `ridgeline profile` prints: one row per case, each column as wide as its
// widest cell (a long case name never pushes the numbers out of line), the notes of a
// case indented under it; then the fusion and einsum lines, and the first screen last
// (overview_terminal), where the eye is when the command ends. Every string from the run is
// shown with visible escapes.
#include <fmt/format.h>

#include "einsum_sections.hpp"
#include "fusion_sections.hpp"
#include "ridgeline/analysis/noise.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/overview.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

using namespace reports;

std::string terminal_summary(const ReportInput& in) {
  std::vector<TextRow> rows{{"case", "GFLOP/s", "AI", "eff.", "bound"}};
  std::vector<std::vector<std::string>> notes{{}};
  for (const auto& p : in.placements) {
    const std::string name = escape_visible(p.name);
    if (!p.placeable) {
      rows.push_back({name, "—", "—", "—", "not placeable: " + escape_visible(p.reason)});
    } else {
      rows.push_back({name, gflops(p.achieved), intensity(p.level_intensity),
                      p.attainable > 0 ? percent(p.efficiency) : "—",
                      escape_visible(to_string(p.bound)) + (p.above_roof ? " (above roof)" : "")});
    }
    notes.emplace_back();
    for (const auto& n : p.notes)
      notes.back().push_back(fmt::format("{}: {}", to_string(n.kind), escape_visible(n.text)));
  }
  // One line per row from the shared formatter, each followed by its case's notes.
  const std::string table = format_columns(rows, "", {1, 2, 3});
  std::string s;
  std::size_t row = 0;
  for (std::size_t begin = 0, end; begin < table.size(); begin = end + 1, ++row) {
    end = table.find('\n', begin);
    s += table.substr(begin, end - begin + 1);
    for (const auto& n : notes[row]) s += "    " + n + "\n";
  }
  return s + reports::fusion_terminal(in) + einsum_terminal(in) + overview_terminal(in);
}

std::string busy_machine_warning(const ReportInput& in) {
  std::size_t counted = 0, busy = 0;
  double worst = 1;
  for (const auto& p : in.placements) {
    if (p.cpu_share <= 0) continue;
    ++counted;
    if (p.cpu_share < kNoisyCpuShare) ++busy;
    worst = std::min(worst, p.cpu_share);
  }
  if (!busy) return in.load_warning.empty() ? "" : "the machine was busy: " + in.load_warning;
  return fmt::format(
             "the machine was busy: in {} of {} cases the calling thread was off the CPU for more "
             "than "
             "{:.0f}% of a repetition (at worst on it {:.0f}% of the time); their times are "
             "inflated, "
             "see the noise notes",
             busy, counted, 100 * (1 - kNoisyCpuShare), 100 * worst) +
         (in.load_warning.empty() ? "" : "; " + in.load_warning);
}

}  // namespace ridgeline
