#include "ridgeline/analysis/pattern_effect.hpp"

#include <algorithm>
#include <map>

namespace ridgeline {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::optional<double> median_of(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return median(v);
}

struct Series {
  std::vector<double> rate, power, clock, fpj;
  bool throttled = false;
};

}  // namespace

std::vector<PatternEffect> pattern_effects(const Run& run) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> patterns;  // key -> patterns in order
  std::map<std::pair<std::string, std::string>, Series> series;
  for (const auto& r : run.benchmarks) {
    if (!r.ridgeline || r.run_type != "iteration" || r.error_occurred) continue;
    const CaseDetails& d = *r.ridgeline;
    const std::string key =
        d.problem.op + "/" + d.backend + "/" + std::string(to_string(d.problem.dtype)) + "/" +
        shape_label(d.problem.shape) + "/layout=" + std::string(to_string(d.problem.layout)) +
        "/threads=" + std::to_string(d.threads);
    if (!patterns.count(key)) order.push_back(key);
    auto& p = patterns[key];
    if (std::find(p.begin(), p.end(), d.problem.pattern) == p.end()) p.push_back(d.problem.pattern);
    Series& s = series[{key, d.problem.pattern}];
    for (const auto& m : d.metrics) {
      if (m.name == "flop_rate") s.rate.push_back(m.value);
      if (m.name == "power.gpu.avg" || (d.device == "cpu" && m.name == "power.package-0"))
        s.power.push_back(m.value);
      if (m.name == "clock.sm.avg") s.clock.push_back(m.value);
      if (m.name == "flop_per_joule.gpu" ||
          (d.device == "cpu" && m.name == "flop_per_joule.package-0"))
        s.fpj.push_back(m.value);
      if (m.name == "gpu.throttled" && m.value > 0) s.throttled = true;
    }
  }
  std::vector<PatternEffect> out;
  for (const auto& key : order) {
    if (patterns[key].size() < 2) continue;
    PatternEffect e{key, {}};
    for (const auto& pattern : patterns[key]) {
      const Series& s = series[{key, pattern}];
      if (s.rate.empty()) continue;
      e.points.push_back({pattern, median(s.rate), median_of(s.power), median_of(s.clock),
                          median_of(s.fpj), s.throttled});
    }
    if (e.points.size() >= 2) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace ridgeline
