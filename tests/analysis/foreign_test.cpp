// Placement of Google Benchmark's own output, on recordings made with its versions 1.7.1,
// 1.9.4 and 1.9.5 (tests/fixtures/README.md). The recorder declares 8192 FLOP and 32768
// bytes per iteration and counts them into kIsRate counters, and every thread adds the wall
// time of its timed loop to `wall_s`: a reader that gets the time base right recovers the
// declared work exactly, and the FLOP rate per second of wall time (the threads' mean).
#include <gtest/gtest.h>

#include <cmath>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace {

constexpr double kFlops = 8192, kBytes = 32768;

ridgeline::Run recording(const std::string& name) {
  return read_run_file(std::string(RIDGELINE_FIXTURES "/") + name);
}

// The run with only the iteration rows of one repetition: one placement per row.
ridgeline::Run repetition(const ridgeline::Run& run, std::int64_t index) {
  ridgeline::Run out = run;
  out.benchmarks.clear();
  for (const auto& r : run.benchmarks)
    if (r.run_type == "iteration" && r.repetition_index == index) out.benchmarks.push_back(r);
  return out;
}

const RooflinePlacement& find(const std::vector<RooflinePlacement>& placed,
                              const std::string& name) {
  for (const auto& p : placed)
    if (p.name == name) return p;
  throw std::runtime_error("no placement named " + name);
}

class Recordings : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(Recordings, WorkPerCallIsTheDeclaredWork) {
  const ridgeline::Run run = recording(GetParam());
  const MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  int placed = 0;
  for (const auto& p : place_results(run, &m)) {
    if (!p.placeable) continue;
    ++placed;
    EXPECT_NEAR(p.flops, kFlops, 1e-6 * kFlops) << p.name << ": " << join_notes(p.notes);
    EXPECT_NEAR(p.bytes.at("DRAM"), kBytes, 1e-6 * kBytes) << p.name;
    EXPECT_EQ(p.flops_source, MetricSource::derived) << p.name;
    EXPECT_EQ(p.bytes_source, MetricSource::derived) << p.name;
    EXPECT_EQ(p.disposition, Disposition::not_verified) << p.name;
    EXPECT_NE(join_notes(p.notes).find("rate: "), std::string::npos) << p.name;
  }
  EXPECT_GE(placed, 5) << "every case with counters, once";
}

TEST_P(Recordings, RatesArePerSecondOfWallTime) {
  const ridgeline::Run run = recording(GetParam());
  for (std::int64_t rep = 0; rep < 3; ++rep) {
    const ridgeline::Run one = repetition(run, rep);
    const auto placed = place_results(one, nullptr);
    int checked = 0;
    for (const auto& r : one.benchmarks) {
      if (!r.counters.count("wall_s")) continue;  // manual time: no wall reference
      const auto& p = find(placed, r.run_name);
      ASSERT_TRUE(p.placeable) << p.name << ": " << p.reason;
      // Google Benchmark's wall time of a repetition: its threads' mean.
      const double threads = static_cast<double>(r.threads);
      const double wall = r.counters.at("wall_s") / threads;
      const double wall_rate = kFlops * static_cast<double>(r.iterations) / wall;
      EXPECT_NEAR(p.achieved / wall_rate, 1.0, 0.01)
          << p.name << " rep " << rep << ": " << join_notes(p.notes);
      // One call is one iteration of one thread: threads x wall time / iterations.
      EXPECT_NEAR(p.seconds * static_cast<double>(r.iterations) / (threads * wall), 1.0, 0.01)
          << p.name;
      ++checked;
    }
    EXPECT_GE(checked, 5);
  }
}

INSTANTIATE_TEST_SUITE_P(GoogleBenchmark, Recordings,
                         ::testing::Values("gbench-1.7.1-rates.json", "gbench-1.9.4-rates.json",
                                           "gbench-1.9.5-rates.json"));

TEST(ForeignPlacement, AggregatesOnlyFilesPlaceEachCaseOnceFromItsMedian) {
  for (const char* file :
       {"gbench-1.7.1-aggregates-only.json", "gbench-1.9.5-aggregates-only.json"}) {
    const ridgeline::Run run = recording(file);
    for (const auto& r : run.benchmarks) ASSERT_EQ(r.run_type, "aggregate") << file;
    const auto placed = place_results(run, nullptr);
    ASSERT_EQ(placed.size(), 5u) << file << ": BM_Sleepy twice, BM_Busy three times";
    for (const auto& p : placed) {
      EXPECT_TRUE(p.placeable) << file << " " << p.name << ": " << p.reason;
      EXPECT_NEAR(p.flops, kFlops, 1e-6 * kFlops) << file << " " << p.name;
      EXPECT_NE(join_notes(p.notes).find("median of 3 repetitions"), std::string::npos)
          << join_notes(p.notes);
    }
  }
}

TEST(ForeignPlacement, FitsSkipsErrorsAndNonFiniteCountersAreNotPlaced) {
  const ridgeline::Run run = recording("gbench-1.9.5-rates.json");
  const auto placed = place_results(run, nullptr);
  const auto& big_o = find(placed, "BM_Complexity_BigO");
  EXPECT_FALSE(big_o.placeable);
  EXPECT_NE(big_o.reason.find("Complexity() fit"), std::string::npos) << big_o.reason;
  EXPECT_FALSE(find(placed, "BM_Complexity_RMS").placeable);
  const auto& skipped = find(placed, "BM_Skipped");
  EXPECT_EQ(skipped.disposition, Disposition::skipped);
  EXPECT_EQ(skipped.reason, "skipped: needs AVX-512 VNNI");
  const auto& error = find(placed, "BM_Error");
  EXPECT_EQ(error.disposition, Disposition::error);
  EXPECT_EQ(error.reason, "error: no device here");
  for (const auto& p : placed) {
    EXPECT_NE(p.disposition, Disposition::passed)
        << p.name << ": Ridgeline validated no foreign result";
    if (p.placeable) {
      EXPECT_TRUE(std::isfinite(p.achieved) && std::isfinite(p.flops)) << p.name;
    }
  }
}

TEST(ForeignPlacement, ACaseWithOnlySpreadsIsListedNotDropped) {
  ridgeline::Run run = recording("gbench-1.7.1-aggregates-only.json");
  std::vector<CaseResult> spreads;
  for (const auto& r : run.benchmarks)
    if (r.aggregate_name == "stddev" || r.aggregate_name == "cv") spreads.push_back(r);
  run.benchmarks = spreads;
  const auto placed = place_results(run, nullptr);
  ASSERT_EQ(placed.size(), 5u);
  for (const auto& p : placed)
    EXPECT_NE(p.reason.find("no iteration, median or mean"), std::string::npos);
}

TEST(ForeignPlacement, NonFiniteRateIsNotMeasured) {
  ridgeline::Run run = recording("gbench-1.7.1-rates.json");
  run.benchmarks = repetition(run, 0).benchmarks;
  for (auto& r : run.benchmarks) r.counters["flops"] = std::nan("");
  for (const auto& p : place_results(run, nullptr)) {
    EXPECT_FALSE(p.placeable) << p.name;
  }
  const auto placed = place_results(run, nullptr);
  EXPECT_NE(find(placed, "BM_Busy").reason.find("not measured"), std::string::npos);
}

}  // namespace ridgeline
