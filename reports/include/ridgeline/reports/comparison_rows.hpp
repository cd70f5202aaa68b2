#pragma once
// What the comparison printers (reports/comparison.hpp and the dashboard's verdict table)
// share: the order of the rows, the cells of one row and the verdict table itself.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "ridgeline/reports/comparison.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::comparison_rows {

// Largest effect first (|log ratio|); cases without a ratio (broken, untested) before all.
inline std::vector<const CaseComparison*> by_effect(const RunComparison& cmp) {
  std::vector<const CaseComparison*> rows;
  for (const auto& c : cmp.cases) rows.push_back(&c);
  std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    const double ea = a->tested ? std::abs(std::log(a->ratio)) : INFINITY;
    const double eb = b->tested ? std::abs(std::log(b->ratio)) : INFINITY;
    return ea > eb;
  });
  return rows;
}

inline std::string ratio(const CaseComparison& c) {
  return c.tested ? fmt::format("{:.3f}", c.ratio) : "-";
}
inline std::string interval(const CaseComparison& c) {
  return c.tested ? fmt::format("{:.3f}-{:.3f}", c.low, c.high) : "-";
}
inline std::string p_holm(const CaseComparison& c) {
  return c.tested ? fmt::format("{:.2g}", c.p_holm) : "-";
}
inline std::string repetitions(const CaseComparison& c) {
  return fmt::format("{}/{}", c.base.size(), c.head.size());
}
inline std::string basis(const RunComparison& cmp) {
  return cmp.basis == "time" ? "time per call" : "efficiency (% of each machine's roof)";
}
inline std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// "±5%", or where a thresholds file gave some cases their own, says so.
inline std::string threshold_text(const RunComparison& cmp) {
  const double t = cmp.settings.threshold * 100;
  return cmp.settings.case_thresholds.empty()
             ? fmt::format("±{:g}%", t)
             : fmt::format("per case from --calibrate ({} listed, ±{:g}% for the others)",
                           cmp.settings.case_thresholds.size(), t);
}
inline std::string within_text(const RunComparison& cmp) {
  return cmp.settings.case_thresholds.empty() ? fmt::format("±{:g}%", cmp.settings.threshold * 100)
                                              : "their thresholds";
}

// "1 regression, 3 same": one count per verdict present.
inline std::string tally(const RunComparison& cmp) {
  std::map<Verdict, int> count;
  for (const auto& c : cmp.cases) count[c.verdict] += 1;
  std::string out;
  for (const auto& [v, n] : count)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, to_string(v));
  return out.empty() ? "no cases" : out;
}

// The verdict table every printer renders (terminal, Markdown, HTML, the dashboard): one row
// per case of `rows`, in that order (by_effect's, which a printer keeps beside the table for
// what the cells do not say: a row's verdict, its placements). The verdict in capitals and in
// its colour; the ratio and p (Holm) numbers where tested ("-" where not); "why" holds the
// reason, then each run's noise ("noisy, ..."), one line each.
enum VerdictColumn { kVerdict, kRatio, kInterval, kP, kRepetitions, kCase, kWhy, kVerdictColumns };
Table verdict_table(const std::vector<const CaseComparison*>& rows);
inline Table verdict_table(const RunComparison& cmp) {
  return verdict_table(by_effect(cmp));
}

}  // namespace ridgeline::comparison_rows
