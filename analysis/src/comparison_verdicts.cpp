// A comparison's verdicts: each tested case decided against the threshold with Holm's
// correction over the family (judge), the words of a verdict and of --fail-on, and the gate.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ridgeline/analysis/rank_tests.hpp"
#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

constexpr Spelling<Verdict> kVerdicts[] = {
    {Verdict::regression, "regression", {}},
    {Verdict::improvement, "improvement", {}},
    {Verdict::same, "same", {}},
    {Verdict::inconclusive, "inconclusive", {}},
    {Verdict::broken, "broken", {}},
};
static_assert(spelled_in_order(kVerdicts, Verdict::broken));

// --fail-on's words (parse_fail_on).
constexpr Spelling<FailOn> kFailOns[] = {
    {FailOn::regression, "regression", {}},
    {FailOn::inconclusive, "inconclusive", {}},
    {FailOn::change, "change", {}},
};
static_assert(spelled_in_order(kFailOns, FailOn::change));

// Repetitions per side with which equal samples could reach p below `level`.
int repetitions_for(double level) {
  int n = 2;
  while (n < 1000 && smallest_two_sided_p(n, n) >= level) ++n;
  return n;
}

std::string percent(double ratio) {
  return fmt::format("{:+.1f}%", (ratio - 1) * 100);
}

// What would settle an inconclusive case whose sizes can reach significance: the side of
// the interval that crosses a threshold has to pull back to it, and the interval's width
// shrinks about as 1 / sqrt(repetitions).
std::string settle(const CaseComparison& c, double t) {
  const double est = std::log(c.ratio), lo = std::log(c.low), hi = std::log(c.high);
  const double up = std::log1p(t), down = std::log1p(-t);
  const std::string where = fmt::format("the interval {:.3f}–{:.3f} ({} to {}) crosses ±{:g}%",
                                        c.low, c.high, percent(c.low), percent(c.high), t * 100);
  // The factor the crossing side is too long by.
  double factor = 0;
  if (est > up)
    factor = est - up > 0 ? (est - lo) / (est - up) : INFINITY;
  else if (est < down)
    factor = down - est > 0 ? (hi - est) / (down - est) : INFINITY;
  else
    factor = std::max(up > est ? (hi - est) / (up - est) : INFINITY,
                      est > down ? (est - lo) / (est - down) : INFINITY);
  if (!(factor < 10))
    return where + fmt::format(": the change ({}) sits at the threshold itself", percent(c.ratio));
  const auto n = static_cast<double>(std::min(c.base.size(), c.head.size()));
  const double needed = std::max(n + 1, std::ceil(n * factor * factor));
  return where + fmt::format(": about {:g} repetitions per run would settle it", needed);
}

void decide(CaseComparison& c, const ComparisonSettings& s, int family) {
  const double t = s.threshold_for(c.key);
  const bool significant = c.p_holm < s.alpha;
  if (significant && c.low > 1 + t) {
    c.verdict = Verdict::regression;
    c.reason = fmt::format("slower by {} (interval {} to {}), p = {:.2g} after Holm",
                           percent(c.ratio).substr(1), percent(c.low), percent(c.high), c.p_holm);
  } else if (significant && c.high < 1 - t) {
    c.verdict = Verdict::improvement;
    c.reason = fmt::format("faster by {} (interval {} to {}), p = {:.2g} after Holm",
                           percent(c.ratio).substr(1), percent(c.low), percent(c.high), c.p_holm);
  } else if (c.confidence < 1 - s.alpha - 1e-12) {
    // No interval at the asked confidence (one repetition a side gives a point, confidence 0):
    // an equivalence verdict cannot stand on it, whatever the point says.
    c.verdict = Verdict::inconclusive;
    c.reason = fmt::format(
        "{} and {} repetitions give no interval at {:g}% confidence (the widest: {:.0f}%): "
        "run at least {} repetitions each",
        c.base.size(), c.head.size(), (1 - s.alpha) * 100, c.confidence * 100,
        repetitions_for(s.alpha));
  } else if (c.low >= 1 - t && c.high <= 1 + t) {
    c.verdict = Verdict::same;
    c.reason = fmt::format("the interval {} to {} lies within ±{:g}%", percent(c.low),
                           percent(c.high), t * 100);
  } else if (c.smallest_p >= s.alpha / family) {
    c.verdict = Verdict::inconclusive;
    c.reason = fmt::format(
        "{} and {} repetitions reach p = {:.2g} at best, and Holm over {} cases asks for p < "
        "{:.2g}: run at least {} repetitions each",
        c.base.size(), c.head.size(), c.smallest_p, family, s.alpha / family,
        repetitions_for(s.alpha / family));
  } else {
    c.verdict = Verdict::inconclusive;
    c.reason = settle(c, t);
  }
}

}  // namespace

std::string_view to_string(Verdict verdict) {
  return spelling_of(kVerdicts, verdict).json;
}

void judge(RunComparison& comparison, const ComparisonSettings& settings) {
  comparison.settings = settings;
  for (auto& c : comparison.cases)
    if (c.tested) decide(c, settings, comparison.tested);
}

std::optional<FailOn> parse_fail_on(std::string_view text) {
  return value_of<FailOn>(kFailOns, text);
}

bool fails(const CaseComparison& c, FailOn on) {
  switch (c.verdict) {
    case Verdict::regression:
    case Verdict::broken:
      return true;
    case Verdict::inconclusive:
      return on != FailOn::regression;
    case Verdict::improvement:
      return on == FailOn::change;
    case Verdict::same:
      return false;
  }
  return true;
}

bool gate_fails(const RunComparison& comparison, FailOn on, bool allow_empty) {
  if (comparison.cases.empty() && !allow_empty) return true;
  if (on == FailOn::change && (!comparison.added.empty() || !comparison.removed.empty()))
    return true;
  return std::any_of(comparison.cases.begin(), comparison.cases.end(),
                     [&](const CaseComparison& c) { return fails(c, on); });
}

}  // namespace ridgeline
