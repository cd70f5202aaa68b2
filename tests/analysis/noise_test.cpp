// The noise notes of a placement, from the metrics recorded with each repetition.
#include "ridgeline/analysis/noise.hpp"

#include <gtest/gtest.h>

#include "fusion_runs.hpp"
#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {
namespace {

// One repetition of a 1-thread case: `ms` per call over 10 calls, the calling thread on a
// CPU for `share` of it, with `migrations` moves.
CaseResult repetition(double ms, double share, double migrations = 0, double switches = 1) {
  CaseResult r = fusion_runs::make_case("cpu.x", "gemm", "m=64,n=64,k=64", 1, ms);
  const double wall = ms * 1e-3 * 10;
  r.ridgeline->metrics = {{"wall_time", wall, "s", MetricSource::timed},
                          {"perf.task-clock", wall * share * 1e9, "ns", MetricSource::counted},
                          {"perf.context-switches", switches, "events", MetricSource::counted},
                          {"perf.cpu-migrations", migrations, "events", MetricSource::counted}};
  return r;
}

std::vector<std::string> noise_of(const std::vector<CaseResult>& reps) {
  ridgeline::Run run;
  for (const auto& r : reps) run.benchmarks.push_back(r);
  const auto placed = place_results(run, nullptr);
  EXPECT_EQ(placed.size(), 1u);
  std::vector<std::string> out;
  for (const auto& n : placed.at(0).notes)
    if (n.kind == NoteKind::noise) out.push_back(n.text);
  EXPECT_EQ(placed.at(0).noisy, !out.empty());
  return out;
}

TEST(Noise, AQuietCaseHasNone) {
  EXPECT_TRUE(
      noise_of({repetition(1.00, 0.99), repetition(1.01, 1.0), repetition(0.99, 0.98)}).empty());
}

TEST(Noise, SpreadDescheduledThreadsAndMigrationsEachSaySo) {
  const auto spread = noise_of({repetition(1.0, 1), repetition(1.2, 1), repetition(0.9, 1)});
  ASSERT_EQ(spread.size(), 1u);
  EXPECT_NE(spread[0].find("over 3 repetitions (above 5%)"), std::string::npos) << spread[0];

  const auto shared = noise_of({repetition(1.0, 0.99), repetition(1.0, 0.45, 0, 12)});
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_NE(shared[0].find("on a CPU for 45% of a repetition's wall time"), std::string::npos)
      << shared[0];
  EXPECT_NE(shared[0].find("13 context switches"), std::string::npos) << shared[0];

  const auto moved = noise_of({repetition(1.0, 1, 2), repetition(1.0, 1, 1)});
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_NE(moved[0].find("moved between CPUs 3 times"), std::string::npos) << moved[0];
}

TEST(Noise, AGpuCasesSleepingThreadIsNotNoise) {
  RepetitionSamples s = summarize_repetitions({1e-3, 1e-3});
  const RepetitionCounters r = repetition_counters(repetition(1.0, 0.1));
  EXPECT_TRUE(timing_noise({&s, {r}, Device::gpu, false}).reasons.empty());
  EXPECT_EQ(timing_noise({&s, {r}, Device::cpu, false}).reasons.size(), 1u);
  EXPECT_NEAR(timing_noise({&s, {r}, Device::cpu, false}).cpu_share, 0.1, 1e-12);
  EXPECT_EQ(timing_noise({&s, {}, Device::cpu, false}).cpu_share, 0);  // nothing counted
  const auto throttled = timing_noise({&s, {}, Device::gpu, true}).reasons;
  ASSERT_EQ(throttled.size(), 1u);
  EXPECT_NE(throttled[0].find("throttled"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
