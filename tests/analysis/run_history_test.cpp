// compare --history on runs built by hand: the step of a case that slowed down is found at
// the run it started, a steady case has none, and the newest run is judged against the
// runs before it.
#include "ridgeline/analysis/run_history.hpp"

#include <gtest/gtest.h>

#include <random>

#include "fusion_runs.hpp"

namespace ridgeline {
namespace {

void add(ridgeline::Run& run, const std::string& backend, std::mt19937_64& rng, double ms) {
  std::normal_distribution<double> noise(1, 0.005);
  CaseResult r = fusion_runs::make_case(backend, "gemm", "m=128,n=128,k=128", 1, ms);
  for (int i = 0; i < 10; ++i) {
    r.repetition_index = i;
    r.real_time = r.cpu_time = ms * noise(rng);
    run.benchmarks.push_back(r);
  }
}

TEST(RunHistory, AStepWhereItStartedAndTheNewestAgainstThoseBefore) {
  std::mt19937_64 rng(8);
  std::vector<ridgeline::Run> runs(10);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    add(runs[i], "cpu.steady", rng, 2.0);
    add(runs[i], "cpu.slowed", rng, i >= 6 ? 2.3 : 2.0);  // 15% slower from the 7th run on
    if (i == 9) add(runs[i], "cpu.new", rng, 1.0);
  }
  std::vector<RunCases> cases;
  for (const auto& run : runs) cases.push_back(run_cases(run));
  const RunHistory h = run_history(cases, {}, 3);
  ASSERT_EQ(h.cases.size(), 3u);
  EXPECT_EQ(h.cases[0].key.backend, "cpu.steady");  // the newest run's order
  EXPECT_TRUE(h.cases[0].steps.empty());
  const auto& slowed = h.cases[1];
  ASSERT_EQ(slowed.steps.size(), 1u);
  EXPECT_EQ(slowed.steps[0].at, 6u);
  EXPECT_NEAR(slowed.steps[0].after / slowed.steps[0].before, 1.15, 0.01);
  EXPECT_NEAR(slowed.steps[0].before, 2e-3, 2e-5);  // seconds
  EXPECT_EQ(h.cases[2].medians[0], 0);              // absent from the older runs
  EXPECT_GT(h.cases[2].medians[9], 0);
  // The newest against runs 7-9 (already slow): the same; against 5 runs it would straddle.
  EXPECT_EQ(h.baseline_runs, 3);
  for (const auto& c : h.latest.cases) {
    EXPECT_EQ(c.base.size(), 30u) << c.name;  // three runs' repetitions pooled
    EXPECT_EQ(c.verdict, Verdict::same) << c.name << ": " << c.reason;
  }
  EXPECT_EQ(h.latest.added.size(), 1u);
  const RunHistory wide = run_history(cases, {}, 5);
  EXPECT_EQ(wide.baseline_runs, 5);
  EXPECT_NE(wide.latest.cases.at(1).verdict, Verdict::same);
  EXPECT_THROW(run_history({cases[0]}, {}, 3), std::invalid_argument);
}

}  // namespace
}  // namespace ridgeline
