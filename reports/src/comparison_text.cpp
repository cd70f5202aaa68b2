// The comparison in the terminal and as Markdown (comparison.hpp).
#include <fmt/format.h>

#include "markdown_table.hpp"
#include "ridgeline/reports/comparison_rows.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline {

using namespace comparison_rows;

namespace {

constexpr std::size_t kMarkdownBudget = 900 * 1024;

}  // namespace

std::string comparison_text(const ComparisonView& view) {
  const RunComparison& cmp = view.comparison;
  std::string out = fmt::format(
      "compare {} -> {}: on {}, threshold {}, alpha {:g} (Holm over {})\n",
      escape_visible(view.base), escape_visible(view.head), basis(cmp), threshold_text(cmp),
      cmp.settings.alpha, plural(static_cast<std::size_t>(cmp.tested), "case"));
  for (const auto& n : cmp.notes) out += "note: " + escape_visible(n) + "\n";
  // The verdict table's columns in fixed widths, the case last (names are long), the
  // reasons and noise on lines of their own under it.
  const auto line = [](const auto& verdict, const auto& ratio, const auto& interval, const auto& p,
                       const auto& reps, const std::string& name) {
    return fmt::format("{:<12} {:>6}  {:<13} {:>8} {:>6}  {}\n", verdict, ratio, interval, p, reps,
                       escape_visible(name));
  };
  out += line("verdict", "ratio", "interval", "p(Holm)", "reps", "case");
  const std::vector<const CaseComparison*> cases = by_effect(cmp);
  const Table table = verdict_table(cases);
  std::size_t folded = 0;
  for (std::size_t r = 0; r < cases.size(); ++r) {
    if (cases[r]->verdict == Verdict::same && !view.all) {
      ++folded;
      continue;
    }
    const std::vector<TableCell>& row = table.rows[r];
    out += line(row[kVerdict].text, row[kRatio].text, row[kInterval].text, row[kP].text,
                row[kRepetitions].text, row[kCase].text);
    for (const auto& l : row[kWhy].lines) out += fmt::format("{:13}{}\n", "", escape_visible(l));
  }
  if (folded)
    out += fmt::format("({} the same within {}, folded; --all lists them)\n",
                       plural(folded, "case"), within_text(cmp));
  if (cmp.tested)
    out += fmt::format("geometric mean of the ratios: {:.3f} over {}\n", cmp.geomean_ratio,
                       plural(static_cast<std::size_t>(cmp.tested), "case"));
  for (const auto& n : cmp.added) out += "added (only in the new run): " + escape_visible(n) + "\n";
  for (const auto& n : cmp.removed)
    out += "removed (only in the base run): " + escape_visible(n) + "\n";
  out += fmt::format("gate (--fail-on {}): {} ({})\n", view.fail_on_name,
                     gate_fails(cmp, view.fail_on, view.allow_empty) ? "FAILED" : "passed",
                     tally(cmp));
  return out;
}

std::string comparison_markdown(const ComparisonView& view) {
  const RunComparison& cmp = view.comparison;
  const bool failed = gate_fails(cmp, view.fail_on, view.allow_empty);
  std::string out = fmt::format(
      "### Ridgeline compare: {}\n\n{} → {} on {}, threshold {}, alpha {:g} (Holm over "
      "{}): {}.",
      failed ? "gate failed" : "gate passed", escape_markdown_cell(view.base),
      escape_markdown_cell(view.head), basis(cmp), threshold_text(cmp), cmp.settings.alpha,
      plural(static_cast<std::size_t>(cmp.tested), "case"), tally(cmp));
  if (cmp.tested) out += fmt::format(" Geometric mean of the ratios: {:.3f}.", cmp.geomean_ratio);
  out += fmt::format(" Gate: `--fail-on {}`.\n\n", view.fail_on_name);
  for (const auto& n : cmp.notes) out += "> " + escape_markdown_cell(n) + "\n\n";
  // The verdict table split in two: the changed cases, then the same ones folded away.
  const std::vector<const CaseComparison*> cases = by_effect(cmp);
  const Table verdicts = verdict_table(cases);
  const std::string header = reports::markdown_header(verdicts);
  std::vector<const std::vector<TableCell>*> changed, same;
  for (std::size_t r = 0; r < cases.size(); ++r)
    (cases[r]->verdict == Verdict::same ? same : changed).push_back(&verdicts.rows[r]);
  std::size_t left_out = 0;
  const auto add_rows = [&](const std::vector<const std::vector<TableCell>*>& rows,
                            std::string& text) {
    for (const auto* cells : rows) {
      std::string row = reports::markdown_row(*cells);
      if (out.size() + text.size() + row.size() > kMarkdownBudget) {
        ++left_out;
        continue;
      }
      text += row;
    }
  };
  if (!changed.empty()) {
    std::string table = header;
    add_rows(changed, table);
    out += table + "\n";
  }
  if (!same.empty()) {
    std::string table = header;
    add_rows(same, table);
    out += fmt::format("<details><summary>{} the same within {}</summary>\n\n{}\n</details>\n\n",
                       plural(same.size(), "case"), within_text(cmp), table);
  }
  for (const auto& n : cmp.added)
    out += "- added (only in the new run): " + escape_markdown_cell(n) + "\n";
  for (const auto& n : cmp.removed)
    out += "- removed (only in the base run): " + escape_markdown_cell(n) + "\n";
  if (left_out)
    out += fmt::format(
        "\n{} left out to stay under the step summary's 1 MiB; `--json` has every case.\n",
        plural(left_out, "row"));
  return out;
}

std::string calibration_text(const Calibration& cal, double threshold, std::size_t runs) {
  std::vector<const CaseCalibration*> rows;
  for (const auto& c : cal.cases) rows.push_back(&c);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* a, const auto* b) { return a->noise_floor > b->noise_floor; });
  std::string out = fmt::format("calibrate: {} runs, {} pairs, {}\n", runs, cal.pairs,
                                plural(cal.cases.size(), "case"));
  out +=
      fmt::format("{:>11} {:>10} {:>13}  {}\n", "noise floor", "threshold", "false alarms", "case");
  for (const auto* c : rows)
    out += fmt::format("{:>10.2f}% {:>9.2f}% {:>6}/{:<6}  {}\n", c->noise_floor * 100,
                       c->threshold * 100, c->false_alarms, cal.pairs, escape_visible(c->name));
  const auto rate = [&](int n) {
    return cal.comparisons ? fmt::format("{:.1f}%", 100.0 * n / cal.comparisons) : "-";
  };
  out += fmt::format(
      "false alarms (regression or improvement between runs of the same code): {} of {} at "
      "±{:g}% ({}); {} at the calibrated thresholds ({}, on the runs they were measured on)\n",
      cal.false_alarms, cal.comparisons, threshold * 100, rate(cal.false_alarms),
      cal.false_alarms_calibrated, rate(cal.false_alarms_calibrated));
  return out;
}

std::string history_text(const HistoryView& view) {
  const RunHistory& h = view.history;
  const RunComparison& latest = h.latest;
  std::string out = fmt::format(
      "history of {} runs, oldest first: steps of at least {} (PELT on the log of each "
      "case's median time, levels of {} runs or more)\n",
      view.runs.size(), threshold_text(latest), kMinRunsPerLevel);
  std::size_t quiet = 0;
  for (const auto& c : h.cases) {
    if (c.steps.empty()) {
      ++quiet;
      continue;
    }
    out += escape_visible(c.name) + "\n";
    for (const auto& s : c.steps)
      out += fmt::format("  {:+.1f}% from run {} ({}): {} -> {}\n", (s.after / s.before - 1) * 100,
                         s.at + 1, escape_visible(view.runs.at(s.at)), reports::duration(s.before),
                         reports::duration(s.after));
  }
  out += fmt::format("({} without a step)\n\n", plural(quiet, "case"));
  out += fmt::format("the newest run against the {} before it, their repetitions pooled:\n",
                     plural(static_cast<std::size_t>(h.baseline_runs), "run"));
  const std::string base =
      fmt::format("runs {}-{}", view.runs.size() - static_cast<std::size_t>(h.baseline_runs),
                  view.runs.size() - 1);
  return out + comparison_text(
                   {latest, base, view.runs.back(), view.fail_on, view.fail_on_name, view.all});
}

}  // namespace ridgeline
