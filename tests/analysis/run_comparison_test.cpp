// compare's verdicts and its calibration on runs built by hand: a regression, an improvement,
// identical runs, too few repetitions, a newly crashing case, added and removed cases, runs from
// two machines; and its error rates on simulated A/A and A/B runs.
#include "ridgeline/analysis/run_comparison.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "compared_runs.hpp"
#include "fusion_runs.hpp"
#include "ridgeline/analysis/calibration.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {
namespace {

using compared_runs::add_case;

std::vector<double> noisy(std::mt19937_64& rng, double ms, int n, double cv = 0.01) {
  std::normal_distribution<double> noise(1, cv);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(ms * noise(rng));
  return out;
}

std::vector<double> scaled(std::vector<double> v, double f) {
  for (double& x : v) x *= f;
  return v;
}

const CaseComparison& find(const RunComparison& c, const std::string& backend) {
  for (const auto& x : c.cases)
    if (x.key.backend == backend) return x;
  throw std::logic_error("no case of " + backend);
}

TEST(RunComparison, TheVerdictTable) {
  std::mt19937_64 rng(1);
  ridgeline::Run base, head;
  const auto a = noisy(rng, 2.0, 10), b = noisy(rng, 2.0, 10), c = noisy(rng, 2.0, 10);
  add_case(base, "cpu.slower", a);
  add_case(head, "cpu.slower", scaled(noisy(rng, 2.0, 10), 1.10));
  add_case(base, "cpu.faster", b);
  add_case(head, "cpu.faster", scaled(noisy(rng, 2.0, 10), 0.90));
  add_case(base, "cpu.identical", c);
  add_case(head, "cpu.identical", c);
  add_case(base, "cpu.few", {2.0, 2.01, 1.99});
  add_case(head, "cpu.few", {2.2, 2.21, 2.19});
  add_case(base, "cpu.crashes", noisy(rng, 2.0, 10));
  add_case(head, "cpu.crashes", {}, Disposition::crashed);
  add_case(base, "cpu.gone", noisy(rng, 2.0, 10));
  add_case(head, "cpu.new", noisy(rng, 2.0, 10));

  const RunComparison cmp = compare_runs(base, head, {});
  EXPECT_EQ(cmp.basis, "time");
  EXPECT_EQ(cmp.tested, 4);  // the crashed case has no ratio; added and removed none either

  const auto& slower = find(cmp, "cpu.slower");
  EXPECT_EQ(slower.verdict, Verdict::regression) << slower.reason;
  EXPECT_NEAR(slower.ratio, 1.10, 0.02);
  EXPECT_GT(slower.low, 1.05);
  EXPECT_LT(slower.p_holm, 0.05);
  EXPECT_GE(slower.p_holm, slower.p);

  const auto& faster = find(cmp, "cpu.faster");
  EXPECT_EQ(faster.verdict, Verdict::improvement) << faster.reason;
  EXPECT_NEAR(faster.ratio, 0.90, 0.02);

  const auto& identical = find(cmp, "cpu.identical");
  EXPECT_EQ(identical.verdict, Verdict::same) << identical.reason;
  EXPECT_DOUBLE_EQ(identical.ratio, 1.0);

  const auto& few = find(cmp, "cpu.few");  // 10% slower, but 3 + 3 reach p = 0.1 at best
  EXPECT_EQ(few.verdict, Verdict::inconclusive);
  EXPECT_DOUBLE_EQ(few.smallest_p, 0.1);
  EXPECT_NE(few.reason.find("run at least"), std::string::npos) << few.reason;

  const auto& crashes = find(cmp, "cpu.crashes");
  EXPECT_EQ(crashes.verdict, Verdict::broken);
  EXPECT_NE(crashes.reason.find("crashed"), std::string::npos) << crashes.reason;

  ASSERT_EQ(cmp.added.size(), 1u);
  EXPECT_NE(cmp.added[0].find("cpu.new"), std::string::npos);
  ASSERT_EQ(cmp.removed.size(), 1u);
  EXPECT_NE(cmp.removed[0].find("cpu.gone"), std::string::npos);

  EXPECT_TRUE(gate_fails(cmp, FailOn::regression));
  EXPECT_TRUE(fails(slower, FailOn::regression));
  EXPECT_TRUE(fails(crashes, FailOn::regression));
  EXPECT_FALSE(fails(faster, FailOn::regression));  // improvements never fail the default gate
  EXPECT_FALSE(fails(few, FailOn::regression));
  EXPECT_TRUE(fails(few, FailOn::inconclusive));
  EXPECT_TRUE(fails(faster, FailOn::change));
  EXPECT_FALSE(fails(identical, FailOn::change));
}

TEST(RunComparison, OnlyImprovementsPassTheDefaultGate) {
  std::mt19937_64 rng(2);
  ridgeline::Run base, head;
  add_case(base, "cpu.faster", noisy(rng, 2.0, 10));
  add_case(head, "cpu.faster", scaled(noisy(rng, 2.0, 10), 0.8));
  const RunComparison cmp = compare_runs(base, head, {});
  EXPECT_EQ(cmp.cases.at(0).verdict, Verdict::improvement);
  EXPECT_FALSE(gate_fails(cmp, FailOn::regression));
  EXPECT_FALSE(gate_fails(cmp, FailOn::inconclusive));
  EXPECT_TRUE(gate_fails(cmp, FailOn::change));
  EXPECT_NEAR(cmp.geomean_ratio, 0.8, 0.02);
}

TEST(RunComparison, RunsFromTwoMachinesAreComparedOnEfficiency) {
  // The same time on a machine with twice the roof is half the efficiency: a regression on
  // efficiency although the times agree.
  std::mt19937_64 rng(3);
  ridgeline::Run base, head;
  base.context.machine = fusion_runs::machine();
  MachineModel faster = fusion_runs::machine();
  faster.fingerprint = "another machine";
  for (auto& c : faster.compute) c.per_second *= 2;
  for (auto& m : faster.memory) m.bytes_per_s *= 2;
  head.context.machine = faster;
  const auto t = noisy(rng, 2.0, 10);
  add_case(base, "cpu.same_time", t);
  add_case(head, "cpu.same_time", t);
  const RunComparison cmp = compare_runs(base, head, {});
  EXPECT_EQ(cmp.basis, "efficiency");
  ASSERT_FALSE(cmp.notes.empty());
  EXPECT_NE(cmp.notes[0].find("different machines"), std::string::npos);
  const auto& c = cmp.cases.at(0);
  EXPECT_EQ(c.verdict, Verdict::regression) << c.reason;
  EXPECT_NEAR(c.ratio, 2.0, 1e-9);
  // On one machine (same fingerprint), the same times are the same.
  head.context.machine = fusion_runs::machine();
  EXPECT_EQ(compare_runs(base, head, {}).cases.at(0).verdict, Verdict::same);
}

TEST(RunComparison, CasesMatchByTheirFieldsNotTheirNames) {
  std::mt19937_64 rng(4);
  ridgeline::Run base, head;
  const auto t = noisy(rng, 2.0, 10);
  add_case(base, "cpu.x", t);
  add_case(head, "cpu.x", t);
  head.benchmarks.front().name = "renamed";  // the name differs, every field agrees
  for (auto& r : head.benchmarks) r.run_name = "renamed";
  const RunComparison cmp = compare_runs(base, head, {});
  ASSERT_EQ(cmp.cases.size(), 1u);
  EXPECT_TRUE(cmp.added.empty());
  EXPECT_TRUE(cmp.removed.empty());
  // A different thread count is another case.
  for (auto& r : head.benchmarks) r.ridgeline->threads = 2;
  const RunComparison other = compare_runs(base, head, {});
  EXPECT_TRUE(other.cases.empty());
  EXPECT_EQ(other.added.size(), 1u);
  EXPECT_EQ(other.removed.size(), 1u);
}

// The issue's targets, on simulated runs with a fixed seed: the family-wise false-positive
// rate of A/A comparisons (20 cases, 10 repetitions, 1% noise) at alpha 0.05 after Holm, and
// the power to find a 5% slowdown at 1% noise with 10 repetitions.
TEST(RunComparison, AaFalsePositivesAndAbPower) {
  std::mt19937_64 rng(5);
  int false_alarms = 0;
  const int comparisons = 1000;
  for (int i = 0; i < comparisons; ++i) {
    ridgeline::Run base, head;
    for (int k = 0; k < 20; ++k) {
      const std::string backend = "cpu.k" + std::to_string(k);
      add_case(base, backend, noisy(rng, 2.0, 10));
      add_case(head, backend, noisy(rng, 2.0, 10));
    }
    const RunComparison cmp = compare_runs(base, head, {});
    false_alarms += std::any_of(cmp.cases.begin(), cmp.cases.end(),
                                [](const auto& c) { return c.p_holm < 0.05; });
  }
  EXPECT_LE(false_alarms, comparisons * 5 / 100) << false_alarms << " of " << comparisons;

  int detected = 0, regressions = 0;
  const int trials = 1000;
  for (int i = 0; i < trials; ++i) {
    ridgeline::Run base, head;
    add_case(base, "cpu.k", noisy(rng, 2.0, 10));
    add_case(head, "cpu.k", scaled(noisy(rng, 2.0, 10), 1.05));
    ComparisonSettings s;
    s.threshold = 0.01;
    const RunComparison cmp = compare_runs(base, head, s);
    const auto& c = cmp.cases.at(0);
    detected += c.p_holm < 0.05;
    regressions += c.verdict == Verdict::regression;
  }
  EXPECT_GE(detected, trials * 95 / 100) << detected << " of " << trials;
  EXPECT_GE(regressions, trials * 90 / 100) << regressions << " of " << trials;
}

}  // namespace
}  // namespace ridgeline

namespace ridgeline {
namespace {

TEST(Calibration, ThresholdsFollowEachCasesNoiseAndGateLikeTheyShould) {
  std::mt19937_64 rng(6);
  std::vector<ridgeline::Run> runs(4);
  for (auto& run : runs) {
    add_case(run, "cpu.quiet", noisy(rng, 2.0, 10, 0.002));
    add_case(run, "cpu.noisy", noisy(rng, 2.0, 10, 0.08));
  }
  std::vector<RunCases> cases;
  for (const auto& run : runs) cases.push_back(run_cases(run));
  const Calibration cal = calibrate(cases, {});
  EXPECT_EQ(cal.pairs, 6);
  EXPECT_EQ(cal.comparisons, 12);
  ASSERT_EQ(cal.cases.size(), 2u);
  const auto& noisy_case = cal.cases[0].key.backend == "cpu.noisy" ? cal.cases[0] : cal.cases[1];
  const auto& quiet_case = cal.cases[0].key.backend == "cpu.quiet" ? cal.cases[0] : cal.cases[1];
  EXPECT_GT(noisy_case.noise_floor, 5 * quiet_case.noise_floor);
  EXPECT_EQ(noisy_case.runs, 4);
  EXPECT_DOUBLE_EQ(noisy_case.threshold, kCalibrationMargin * noisy_case.noise_floor);
  EXPECT_DOUBLE_EQ(quiet_case.threshold, kCalibrationFloor);  // 0.2% noise: the floor
  EXPECT_EQ(cal.false_alarms_calibrated, 0);

  // Through the file and back, then used: a 4% slowdown is a regression of the quiet case
  // and no regression of the noisy one.
  const Thresholds file = thresholds_of(cal, 0.05);
  EXPECT_EQ(file.cases.size(), 2u);
  const auto path = std::filesystem::temp_directory_path() / "ridgeline-thresholds-test.json";
  std::ofstream(path) << thresholds_to_json(file);
  const Thresholds back = read_thresholds_file(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back, file);
  ComparisonSettings s;
  apply_thresholds(back, s);
  EXPECT_EQ(s.case_thresholds.size(), 2u);
  ridgeline::Run base, head;
  add_case(base, "cpu.quiet", noisy(rng, 2.0, 10, 0.002));
  add_case(head, "cpu.quiet", scaled(noisy(rng, 2.0, 10, 0.002), 1.04));
  add_case(base, "cpu.noisy", noisy(rng, 2.0, 10, 0.002));
  add_case(head, "cpu.noisy", scaled(noisy(rng, 2.0, 10, 0.002), 1.04));
  const RunComparison cmp = compare_runs(base, head, s);
  EXPECT_EQ(find(cmp, "cpu.quiet").verdict, Verdict::regression) << find(cmp, "cpu.quiet").reason;
  EXPECT_NE(find(cmp, "cpu.noisy").verdict, Verdict::regression);
  // At the global 5% neither would be.
  EXPECT_NE(find(compare_runs(base, head, {}), "cpu.quiet").verdict, Verdict::regression);
}

TEST(Calibration, ABadThresholdsFileIsOneLineNamingIt) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  const std::pair<std::string, std::string> bad[] = {
      {"t-run.json", R"({"benchmarks": []})"},
      {"t-schema.json", R"({"ridgeline_thresholds": 9, "default_threshold": 0.05, "cases": []})"},
      {"t-range.json", R"({"ridgeline_thresholds": 1, "default_threshold": 5, "cases": []})"},
      {"t-negative.json", R"({"ridgeline_thresholds": 1, "default_threshold": 0.05, "cases":
          [{"key": {}, "name": "x", "threshold": -1, "noise_floor": 0, "runs": 2}]})"},
      {"t-case.json",
       R"({"ridgeline_thresholds": 1, "default_threshold": 0.05, "cases": [{"key": {"op": 1}}]})"}};
  // A very noisy case's own threshold may pass 100% (a 3x spread between A/A runs).
  const auto wide = write("t-wide.json", R"({"ridgeline_thresholds": 1, "default_threshold": 0.05,
      "cases": [{"key": {"op": "gemm"}, "name": "x", "threshold": 3.5, "noise_floor": 2.8, "runs": 4}]})");
  EXPECT_EQ(read_thresholds_file(wide).cases.at(0).threshold, 3.5);
  std::filesystem::remove(wide);
  for (const auto& [name, text] : bad) {
    const auto path = write(name, text);
    try {
      read_thresholds_file(path);
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace ridgeline

namespace ridgeline {
namespace {

TEST(RunComparison, GoogleBenchmarkFilesCompareByNameAndTheirFitsAreNoCases) {
  const ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/gbench-1.9.5-rates.json");
  const RunComparison same = compare_runs(run, run, {});
  ASSERT_FALSE(same.cases.empty());
  for (const auto& c : same.cases) {
    EXPECT_FALSE(c.key.foreign_name.empty());
    EXPECT_EQ(c.name.find("_BigO"), std::string::npos);  // Complexity() fits are summaries
    EXPECT_EQ(c.name.find("_RMS"), std::string::npos);
    EXPECT_NE(c.verdict, Verdict::broken) << c.name;
  }
  EXPECT_TRUE(same.added.empty());
  EXPECT_TRUE(same.removed.empty());
  ASSERT_FALSE(same.notes.empty());
  EXPECT_EQ(same.notes[0],
            "neither run carries a machine model: compared on time, assuming the same machine");
  // A benchmark that errors in the new file and timed in the base one broke.
  ridgeline::Run broken = run;
  std::string name;
  for (auto& r : broken.benchmarks)
    if (r.run_type == "iteration" && !r.error_occurred && !r.skipped && name.empty())
      name = r.run_name;
  for (auto& r : broken.benchmarks)
    if (r.run_name == name) r.error_occurred = true, r.error_message = "boom";
  const RunComparison cmp = compare_runs(run, broken, {});
  bool found = false;
  for (const auto& c : cmp.cases)
    if (c.name == name) {
      found = true;
      EXPECT_EQ(c.verdict, Verdict::broken) << c.reason;
      EXPECT_NE(c.reason.find("the base run timed it"), std::string::npos) << c.reason;
    }
  EXPECT_TRUE(found) << name;
}

}  // namespace
}  // namespace ridgeline
