#include "ridgeline/analysis/pattern_effect.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

namespace {

std::optional<double> median_or_none(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return median_of(v);
}

struct Series {
  std::vector<double> rate, power, clock, fpj;
  std::vector<std::string> left_out;  // readings that are not usable numbers
  bool throttled = false;
  bool power_capped = false;
};

bool is_reading(const Metric& m, Device device) {
  return m.name == "flop_rate" || m.name == "power.gpu.avg" || m.name == "clock.sm.avg" ||
         m.name == "flop_per_joule.gpu" ||
         (device == Device::cpu &&
          (m.name == "power.package-0" || m.name == "flop_per_joule.package-0"));
}

}  // namespace

std::vector<PatternEffect> pattern_effects(const Run& run) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> patterns;  // key -> patterns in order
  std::map<std::string, std::pair<Device, DType>> kind;      // key -> where and in what
  std::map<std::pair<std::string, std::string>, Series> series;
  std::set<std::pair<std::string, std::string>> seen;  // (key, pattern) already in order
  for (const auto& r : run.benchmarks) {
    if (!r.ridgeline || r.run_type != "iteration" || r.error_occurred) continue;
    const CaseDetails& d = *r.ridgeline;
    // The same environment only: subnormals with and without FTZ/DAZ are two effects.
    const std::string fp = d.fp_env == FpEnv::ieee ? "" : "/fp=" + std::string(to_string(d.fp_env));
    const std::string key = d.problem.op + "/" + d.backend + "/" +
                            std::string(to_string(d.problem.dtype)) + "/" +
                            params_label(d.problem) + fp + "/threads=" + std::to_string(d.threads);
    if (!patterns.count(key)) {
      order.push_back(key);
      kind[key] = {d.device, d.problem.dtype};
    }
    auto& p = patterns[key];
    if (seen.insert({key, d.problem.pattern}).second) p.push_back(d.problem.pattern);
    Series& s = series[{key, d.problem.pattern}];
    for (const auto& m : d.metrics) {
      if (m.name == "gpu.throttled" && m.value > 0) s.throttled = true;
      if (m.name == "gpu.power_capped" && m.value > 0) s.power_capped = true;
      if (!is_reading(m, d.device)) continue;
      // NaN would break the sort behind the median; a rate must be positive.
      if (!std::isfinite(m.value) || m.value < 0 || (m.name == "flop_rate" && !usable(m.value))) {
        s.left_out.push_back(m.name + " " + unusable_because(m.value));
        continue;
      }
      if (m.name == "flop_rate") s.rate.push_back(m.value);
      if (m.name == "power.gpu.avg" || (d.device == Device::cpu && m.name == "power.package-0"))
        s.power.push_back(m.value);
      if (m.name == "clock.sm.avg") s.clock.push_back(m.value);
      if (m.name == "flop_per_joule.gpu" ||
          (d.device == Device::cpu && m.name == "flop_per_joule.package-0"))
        s.fpj.push_back(m.value);
    }
  }
  std::vector<PatternEffect> out;
  for (const auto& key : order) {
    if (patterns[key].size() < 2) continue;
    PatternEffect e{key, kind[key].first, std::string(to_string(kind[key].second)), {}};
    for (const auto& pattern : patterns[key]) {
      const Series& s = series[{key, pattern}];
      if (s.rate.empty() && s.left_out.empty()) continue;
      std::string note;
      for (const auto& why : s.left_out) note += (note.empty() ? "reading left out: " : "; ") + why;
      e.points.push_back({pattern, median_of(s.rate), 0, median_or_none(s.power),
                          median_or_none(s.clock), median_or_none(s.fpj), s.throttled,
                          s.power_capped, note});
    }
    // Against the first pattern; 0 (shown as no ratio) where either has no usable rate.
    for (auto& point : e.points) {
      const double ratio = point.flop_rate / e.points.front().flop_rate;
      point.vs_first = usable(ratio) ? ratio : 0;
    }
    if (e.points.size() >= 2) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace ridgeline
