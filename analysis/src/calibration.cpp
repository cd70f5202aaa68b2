#include "ridgeline/analysis/calibration.hpp"

#include <algorithm>
#include <map>

#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

Calibration calibrate(const std::vector<RunCases>& runs, const ComparisonSettings& settings) {
  Calibration out;
  std::map<CaseKey, CaseCalibration> by_key;
  const auto false_alarm = [](const CaseComparison& c) {
    return c.verdict == Verdict::regression || c.verdict == Verdict::improvement;
  };
  std::vector<RunComparison> pairs;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      pairs.push_back(compare_runs(runs[i], runs[j], settings));
      for (const auto& c : pairs.back().cases) {
        if (!c.tested) continue;
        auto& cal = by_key[c.key];
        cal.key = c.key;
        cal.name = c.name;
        cal.noise_floor = std::max({cal.noise_floor, c.high - 1, 1 - c.low});
        cal.false_alarms += false_alarm(c);
        ++out.comparisons;
      }
    }
  out.pairs = static_cast<int>(pairs.size());
  for (const auto& run : runs)
    for (const auto& p : place_cases(run, nullptr)) {
      const auto it = by_key.find(case_key(p));
      if (it != by_key.end() && !p.repetitions.seconds.empty()) ++it->second.runs;
    }
  ComparisonSettings calibrated = settings;
  for (auto& [key, cal] : by_key) {
    cal.threshold = std::max(kCalibrationMargin * cal.noise_floor, kCalibrationFloor);
    calibrated.case_thresholds[key] = cal.threshold;
  }
  for (auto& pair : pairs) {  // the same statistics, judged at the calibrated thresholds
    judge(pair, calibrated);
    for (const auto& c : pair.cases)
      if (c.tested && false_alarm(c)) ++by_key[c.key].false_alarms_calibrated;
  }
  for (auto& [key, cal] : by_key) {
    out.false_alarms += cal.false_alarms;
    out.false_alarms_calibrated += cal.false_alarms_calibrated;
    out.cases.push_back(std::move(cal));
  }
  return out;
}

Thresholds thresholds_of(const Calibration& calibration, double fallback) {
  Thresholds t;
  t.default_threshold = fallback;
  for (const auto& c : calibration.cases)
    t.cases.push_back({key_fields(c.key), c.name, c.threshold, c.noise_floor, c.runs});
  return t;
}

void apply_thresholds(const Thresholds& thresholds, ComparisonSettings& settings) {
  settings.threshold = thresholds.default_threshold;
  for (const auto& c : thresholds.cases)
    settings.case_thresholds[key_from_fields(c.key)] = c.threshold;
}

}  // namespace ridgeline
