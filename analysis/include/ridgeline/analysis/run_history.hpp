#pragma once
// `compare --history`: runs of one suite over time, each case's series of median times with
// its steps (change_points.hpp), and the newest run judged against the runs before it, their
// repetitions pooled. docs/compare.md.
#include <string>
#include <vector>

#include "ridgeline/analysis/change_points.hpp"
#include "ridgeline/analysis/run_comparison.hpp"

namespace ridgeline {

struct CaseHistory {
  CaseKey key;
  std::string name;
  std::vector<double> medians;  // seconds per call, one per run; 0 where the run lacks it
  std::vector<Step> steps;      // `at` indexes the runs; before/after are times (seconds)
};

struct RunHistory {
  std::vector<CaseHistory> cases;  // in the newest run's order, then cases it lacks
  int baseline_runs = 0;           // how many runs before the newest `latest` pooled
  RunComparison latest;            // the newest run against them
};

// runs oldest first (at least two); the newest is judged against up to `last` runs before it.
RunHistory run_history(const std::vector<RunCases>& runs, const ComparisonSettings& settings,
                       int last);

}  // namespace ridgeline
