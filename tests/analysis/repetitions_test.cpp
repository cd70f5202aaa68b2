// Placements keep every timed repetition of their case, and the summary a report prints.
#include "ridgeline/analysis/repetitions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {
namespace {

TEST(Repetitions, SummaryOfSamplesByHand) {
  const RepetitionSamples s = summarize_repetitions({3.0, 1.0, 2.0, 10.0});
  EXPECT_EQ(s.seconds, (std::vector<double>{3.0, 1.0, 2.0, 10.0}));  // the file's order
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 10.0);
  EXPECT_EQ(s.median, 2.5);
  // mean 4, squared deviations 1 + 9 + 4 + 36 = 50 over n - 1 = 3
  EXPECT_EQ(s.mean, 4.0);
  EXPECT_NEAR(s.stddev, std::sqrt(50.0 / 3.0), 1e-15);
  EXPECT_NEAR(s.cv, std::sqrt(50.0 / 3.0) / 4.0, 1e-15);
  const RepetitionSamples one = summarize_repetitions({5.0});
  EXPECT_EQ(one.median, 5.0);
  EXPECT_EQ(one.cv, 0.0);
  EXPECT_TRUE(summarize_repetitions({}).seconds.empty());
}

// Three repetitions of one case with the aggregates our runner writes after them, and a
// second case whose one repetition failed.
Run run_with_repetitions() {
  Run run;
  CaseDetails d;
  d.backend = "cpu.test";
  d.problem = gemm_problem(Shape{64, 64, 64, 1}, Layout::NN, DType::f64, "normal");
  d.work = op_work(d.problem);
  d.validation.disposition = Disposition::passed;
  const auto add = [&](const std::string& name, const std::string& type, const std::string& agg,
                       double ms) {
    CaseResult r;
    r.name = agg.empty() ? name : name + "_" + agg;
    r.run_name = name;
    r.run_type = type;
    r.aggregate_name = agg;
    r.repetitions = 3;
    r.iterations = 100;
    r.real_time = ms;
    r.time_unit = "ms";
    r.ridgeline = d;
    run.benchmarks.push_back(r);
  };
  add("gemm/a", "iteration", "", 2.0);
  add("gemm/a", "iteration", "", 1.0);
  add("gemm/a", "iteration", "", 4.0);
  add("gemm/a", "aggregate", "mean", 7.0 / 3);
  add("gemm/a", "aggregate", "median", 2.0);
  add("gemm/b", "iteration", "", 3.0);
  run.benchmarks.back().error_occurred = true;
  run.benchmarks.back().ridgeline->validation.disposition = Disposition::crashed;
  return run;
}

TEST(Repetitions, PlacementsKeepEveryRepetitionInSecondsPerCall) {
  const auto placed = place_results(run_with_repetitions(), nullptr);
  ASSERT_EQ(placed.size(), 2u);
  const RooflinePlacement& a = placed[0];
  ASSERT_TRUE(a.placeable) << a.reason;
  EXPECT_EQ(a.repetitions.seconds, (std::vector<double>{2e-3, 1e-3, 4e-3}));
  EXPECT_DOUBLE_EQ(a.repetitions.min, 1e-3);
  EXPECT_DOUBLE_EQ(a.repetitions.max, 4e-3);
  EXPECT_DOUBLE_EQ(a.repetitions.median, a.seconds);  // the point is the median repetition
  EXPECT_GT(a.repetitions.cv, 0.5);
  // A repetition that errored timed nothing: no sample, and the case is still listed.
  EXPECT_FALSE(placed[1].placeable);
  EXPECT_TRUE(placed[1].repetitions.seconds.empty());
}

// Google Benchmark 1.9.5's own repetitions: the samples are the file's iteration rows, their
// median is the median row's time, and their cv is the file's cv aggregate (of real time).
TEST(Repetitions, ForeignRepetitionsAgreeWithTheFilesOwnAggregates) {
  const ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/gbench-1.9.5-rates.json");
  const auto placed = place_results(run, nullptr);
  int checked = 0;
  for (const auto& p : placed) {
    if (!p.placeable || p.repetitions.seconds.size() < 2) continue;
    EXPECT_NEAR(p.repetitions.median, p.seconds, 1e-9 * p.seconds) << p.name;
    for (const auto& r : run.benchmarks)
      if (r.run_name == p.name && r.aggregate_name == "cv" && r.threads == 1) {
        EXPECT_NEAR(p.repetitions.cv, r.real_time, 1e-9) << p.name;
        ++checked;
      }
  }
  EXPECT_GT(checked, 0) << "no placeable case with repetitions in the fixture";
}

}  // namespace
}  // namespace ridgeline
