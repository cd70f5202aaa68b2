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

}  // namespace ridgeline
