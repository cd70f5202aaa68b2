#include "ridgeline/analysis/run_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ridgeline/analysis/noise.hpp"
#include "ridgeline/analysis/rank_tests.hpp"
#include "ridgeline/analysis/roofline.hpp"
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

std::string fingerprint_of(const RunContext& context) {
  return context.machine ? context.machine->fingerprint : "";
}

// Seconds per call, or across machines each over the case's roof time (flops / attainable).
std::vector<double> samples_of(const RooflinePlacement& p, bool efficiency) {
  std::vector<double> out = p.repetitions.seconds;
  if (efficiency) {
    if (!p.placeable || !(p.attainable > 0)) return {};
    const double roof_seconds = p.flops / p.attainable;
    for (double& s : out) s /= roof_seconds;
  }
  return out;
}

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

CaseKey case_key(const RooflinePlacement& p) {
  CaseKey k;
  if (p.foreign) {
    k.foreign_name = p.name;
    return k;
  }
  k = {p.op, p.backend, p.device, p.dtype, p.params, p.pattern, p.fp_env, p.threads, "", p.cache};
  return k;
}

std::map<std::string, std::string> key_fields(const CaseKey& k) {
  if (!k.foreign_name.empty()) return {{"foreign_name", k.foreign_name}};
  std::map<std::string, std::string> f{{"op", k.op},
                                       {"backend", k.backend},
                                       {"device", std::string(to_string(k.device))},
                                       {"dtype", k.dtype},
                                       {"params", k.params},
                                       {"pattern", k.pattern},
                                       {"fp_env", k.fp_env},
                                       {"threads", std::to_string(k.threads)}};
  if (k.cache != CacheState::warm) f["cache"] = std::string(to_string(k.cache));
  return f;
}

CaseKey key_from_fields(const std::map<std::string, std::string>& f) {
  const auto get = [&](const char* name) {
    const auto it = f.find(name);
    return it == f.end() ? std::string() : it->second;
  };
  CaseKey k;
  k.foreign_name = get("foreign_name");
  if (!k.foreign_name.empty()) return k;
  k = {get("op"),
       get("backend"),
       parse_device(get("device")).value_or(Device::cpu),
       get("dtype"),
       get("params"),
       get("pattern"),
       get("fp_env"),
       1,
       "",
       get("cache").empty() ? CacheState::warm
                            : parse_cache_state(get("cache")).value_or(CacheState::cold)};
  try {
    k.threads = std::stoi(get("threads"));
  } catch (const std::exception&) {
    k.threads = -1;  // matches no case
  }
  return k;
}

double ComparisonSettings::threshold_for(const CaseKey& key) const {
  const auto it = case_thresholds.find(key);
  return it == case_thresholds.end() ? threshold : it->second;
}

std::string_view to_string(Verdict verdict) {
  return spelling_of(kVerdicts, verdict).json;
}

RunComparison compare_runs(const Run& base, const Run& head, const ComparisonSettings& settings) {
  return compare_runs(run_cases(base), run_cases(head), settings);
}

RunComparison compare_runs(const RunCases& base, const RunCases& head,
                           const ComparisonSettings& settings) {
  RunComparison out;
  out.settings = settings;
  const std::string fb = fingerprint_of(base.context), fh = fingerprint_of(head.context);
  const bool efficiency = !fb.empty() && !fh.empty() && fb != fh;
  if (efficiency) {
    out.basis = "efficiency";
    out.notes.push_back(fmt::format(
        "the runs come from different machines ({} on {}, {} on {}): compared on efficiency, "
        "each case against its own machine's roof, not on time",
        base.context.machine->host, fb, head.context.machine->host, fh));
  } else if (fb.empty() || fh.empty()) {
    out.notes.push_back(fmt::format("{}: compared on time, assuming the same machine",
                                    fb.empty() && fh.empty() ? "neither run carries a machine model"
                                    : fb.empty() ? "the base run carries no machine model"
                                                 : "the new run carries no machine model"));
  }
  for (const auto& [side, run] : {std::pair{"base", &base}, std::pair{"new", &head}})
    if (const std::string w = machine_load_warning(run->context); !w.empty())
      out.notes.push_back(fmt::format("the {} run: {}", side, w));
  const auto bp = place_cases(base, base.context.machine ? &*base.context.machine : nullptr);
  const auto hp = place_cases(head, head.context.machine ? &*head.context.machine : nullptr);
  std::map<CaseKey, const RooflinePlacement*> by_key;
  for (const auto& p : bp)
    if (!p.complexity_fit) by_key.emplace(case_key(p), &p);
  std::map<CaseKey, bool> seen;
  for (const auto& p : hp) {
    if (p.complexity_fit) continue;  // Google Benchmark's fit over sizes: no timing to test
    const CaseKey key = case_key(p);
    if (!seen.emplace(key, true).second) continue;  // the first of duplicate keys
    const auto it = by_key.find(key);
    if (it == by_key.end()) {
      out.added.push_back(p.name);
      continue;
    }
    const RooflinePlacement& b = *it->second;
    CaseComparison c;
    c.key = key;
    c.name = p.name;
    c.base = samples_of(b, efficiency);
    c.head = samples_of(p, efficiency);
    for (const auto& [side, placement] : {std::pair{"base", &b}, std::pair{"new", &p}})
      for (const auto& n : placement->notes)
        if (n.kind == NoteKind::noise) c.noise.push_back(fmt::format("{}: {}", side, n.text));
    c.base_disposition = b.disposition;
    c.head_disposition = p.disposition;
    // A foreign result is never validated here: not_verified is its good state.
    const auto fine = [](Disposition d) {
      return d == Disposition::passed || d == Disposition::not_verified;
    };
    if (fine(b.disposition) && !fine(p.disposition)) {
      c.verdict = Verdict::broken;
      c.reason = b.foreign ? fmt::format("the base run timed it, the new one reports {}",
                                         to_string(p.disposition))
                           : fmt::format("validation was passed, now {}", to_string(p.disposition));
    } else if (!fine(b.disposition)) {
      c.reason = fmt::format("the base run's case was {}: nothing to compare against",
                             to_string(b.disposition));
    } else if (c.base.empty() || c.head.empty()) {
      c.reason = efficiency ? "no efficiency in both runs (a case without a roof, or untimed)"
                            : fmt::format("no timed repetitions in the {} run",
                                          c.base.empty() ? "base" : "new");
    } else {
      std::vector<double> lb, lh;  // logarithms: the shift is the log of the time ratio
      for (double v : c.base) lb.push_back(std::log(v));
      for (double v : c.head) lh.push_back(std::log(v));
      const MannWhitney mw = mann_whitney_u(lb, lh);
      const ShiftEstimate hl = hodges_lehmann(lb, lh, settings.alpha);
      c.p = mw.p;
      c.ratio = std::exp(hl.estimate);
      c.low = std::exp(hl.low);
      c.high = std::exp(hl.high);
      c.confidence = hl.confidence;
      c.smallest_p = smallest_two_sided_p(static_cast<int>(lb.size()), static_cast<int>(lh.size()));
      c.tested = true;
    }
    out.cases.push_back(std::move(c));
  }
  for (const auto& p : bp)
    if (!p.complexity_fit && !seen.count(case_key(p))) out.removed.push_back(p.name);

  std::vector<double> p;
  for (const auto& c : out.cases)
    if (c.tested) p.push_back(c.p);
  const auto adjusted = holm_adjust(p);
  out.tested = static_cast<int>(p.size());
  double log_sum = 0;
  std::size_t i = 0;
  for (auto& c : out.cases) {
    if (!c.tested) continue;
    c.p_holm = adjusted[i++];
    log_sum += std::log(c.ratio);
  }
  if (out.tested) out.geomean_ratio = std::exp(log_sum / out.tested);
  judge(out, settings);
  return out;
}

std::vector<CasePlacements> case_placements(const std::vector<RooflinePlacement>& placements,
                                            std::size_t base_count,
                                            const std::vector<CaseComparison>& cases) {
  std::map<CaseKey, std::size_t> base, head;
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (!placements[i].complexity_fit)
      (i < base_count ? base : head).emplace(case_key(placements[i]), i);
  const auto find = [](const std::map<CaseKey, std::size_t>& side, const CaseKey& key) {
    const auto it = side.find(key);
    return it == side.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  };
  std::vector<CasePlacements> out;
  out.reserve(cases.size());
  for (const auto& c : cases) out.push_back({find(base, c.key), find(head, c.key)});
  return out;
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
