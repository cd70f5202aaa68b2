#include "ridgeline/analysis/run_history.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

RunHistory run_history(const std::vector<RunCases>& runs, const ComparisonSettings& settings,
                       int last) {
  if (runs.size() < 2) throw std::invalid_argument("run_history: fewer than two runs");
  RunHistory out;
  std::map<CaseKey, std::size_t> index;
  for (std::size_t r = runs.size(); r-- > 0;)  // newest first: its cases lead the list
    for (const auto& p : place_cases(runs[r], nullptr)) {
      const CaseKey key = case_key(p);
      auto [it, added] = index.emplace(key, out.cases.size());
      if (added) out.cases.push_back({key, p.name, std::vector<double>(runs.size(), 0), {}});
      auto& medians = out.cases[it->second].medians;
      if (medians[r] == 0 && !p.repetitions.seconds.empty()) medians[r] = p.repetitions.median;
    }
  for (auto& c : out.cases) {
    std::vector<double> logs;
    std::vector<std::size_t> run_of;
    for (std::size_t r = 0; r < runs.size(); ++r)
      if (c.medians[r] > 0) {
        logs.push_back(std::log(c.medians[r]));
        run_of.push_back(r);
      }
    for (Step s : mean_steps(logs, std::log1p(settings.threshold_for(c.key))))
      c.steps.push_back({run_of[s.at], std::exp(s.before), std::exp(s.after)});
  }
  // The baseline: the repetitions of the last runs before the newest, one pooled sample per
  // case (the runs' cases side by side, so each case's repetitions are all its samples).
  const std::size_t newest = runs.size() - 1;
  const std::size_t first = newest > static_cast<std::size_t>(std::max(1, last))
                                ? newest - static_cast<std::size_t>(std::max(1, last))
                                : 0;
  RunCases pooled;
  pooled.context = runs[newest - 1].context;
  for (std::size_t r = first; r < newest; ++r) pooled.pool(runs[r]);
  out.baseline_runs = static_cast<int>(newest - first);
  out.latest = compare_runs(pooled, runs[newest], settings);
  return out;
}

}  // namespace ridgeline
