// The plateau detector (analysis/memory_levels): synthetic sweeps with known levels, noise,
// ramps, dips and a missing level; and the recorded likwid-bench sweep of the Zen 5 VM.
#include "ridgeline/analysis/memory_levels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "byte_sizes.hpp"
#include "sweep_recordings.hpp"

namespace ridgeline {
namespace {

using test::GiB;
using test::KiB;
using test::MiB;

using testing_support::Level;

// 3 points per octave from 4 KiB to `to`; each level's rate up to its capacity, a step of
// one point halfway (in log rate) between it and the next, and multiplicative noise.
std::vector<SweepPoint> synthetic(const std::vector<Level>& levels, double noise, unsigned seed = 1,
                                  std::int64_t to = GiB) {
  std::mt19937 gen(seed);
  return testing_support::synthetic_pass(levels, {noise, 0, 1}, gen, to);
}

void expect_levels(const std::vector<SweepPlateau>& found, const std::vector<Level>& levels) {
  ASSERT_EQ(found.size(), levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_NEAR(found[i].bytes_per_s / 1e9, levels[i].gb_per_s, 0.05 * levels[i].gb_per_s);
    if (i + 1 < levels.size()) {
      const double capacity = static_cast<double>(level_capacity_bytes(found[i], found[i + 1]));
      EXPECT_GT(capacity, levels[i].capacity / 1.5);
      EXPECT_LT(capacity, levels[i].capacity * 1.5);
    }
  }
}

const std::vector<Level> kFourLevels = {{400, 48 * KiB}, {165, 1 * MiB}, {100, 32 * MiB}, {40, 0}};

TEST(Plateaus, FourLevelsWithNoiseAcrossSeeds) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    expect_levels(find_plateaus(synthetic(kFourLevels, 0.03, seed)), kFourLevels);
  }
}

TEST(Plateaus, TwoAndThreeLevels) {
  const std::vector<Level> two = {{300, 256 * KiB}, {30, 0}};
  expect_levels(find_plateaus(synthetic(two, 0.03)), two);
  // No L3: L2 steps straight to DRAM.
  const std::vector<Level> no_l3 = {{400, 48 * KiB}, {165, 2 * MiB}, {40, 0}};
  expect_levels(find_plateaus(synthetic(no_l3, 0.03, 7)), no_l3);
}

TEST(Plateaus, NoiselessSweepStillSplitsAtTheSteps) {
  expect_levels(find_plateaus(synthetic(kFourLevels, 0.0)), kFourLevels);
}

TEST(Plateaus, RampAtTheSmallestSizesAndASingleDipStayInTheirLevel) {
  auto sweep = synthetic(kFourLevels, 0.01);
  // Loop overhead: the first four points at 60%, 70%, 80%, 90% of the L1 rate.
  for (int i = 0; i < 4; ++i) sweep[i].bytes_per_s *= 0.6 + 0.1 * i;
  // One bad point in the middle of L3 (4 MiB: 30% low).
  for (auto& p : sweep)
    if (p.working_set_bytes == 4 * MiB) p.bytes_per_s *= 0.7;
  const auto found = find_plateaus(sweep);
  expect_levels(found, kFourLevels);
  // The ramp is no level of its own, and L1 starts where the rate levels out.
  EXPECT_GE(found.front().first_bytes, 8 * KiB);
  EXPECT_LE(found.front().first_bytes, 16 * KiB);
}

TEST(Plateaus, OrderOfPointsDoesNotMatter) {
  auto sweep = synthetic(kFourLevels, 0.03, 3);
  const auto in_order = find_plateaus(sweep);
  std::reverse(sweep.begin(), sweep.end());
  const auto reversed = find_plateaus(sweep);
  ASSERT_EQ(in_order.size(), reversed.size());
  for (std::size_t i = 0; i < in_order.size(); ++i) {
    EXPECT_EQ(in_order[i].first_bytes, reversed[i].first_bytes);
    EXPECT_EQ(in_order[i].last_bytes, reversed[i].last_bytes);
    EXPECT_DOUBLE_EQ(in_order[i].bytes_per_s, reversed[i].bytes_per_s);
  }
}

TEST(Plateaus, MiddleIsGeometric) {
  const SweepPlateau p{1 * MiB, 16 * MiB, 1e11, 13};
  EXPECT_EQ(p.middle_bytes(), 4 * MiB);
}

TEST(Plateaus, BadPointsAreRefusedAndNoPointsGiveNoPlateaus) {
  EXPECT_TRUE(find_plateaus({}).empty());
  EXPECT_THROW(find_plateaus({{4096, 0.0}}), std::invalid_argument);
  EXPECT_THROW(find_plateaus({{0, 1e9}}), std::invalid_argument);
  EXPECT_THROW(find_plateaus({{4096, std::nan("")}}), std::invalid_argument);
}

// A recorded sweep (tests/fixtures/README.md; columns kernel, threads, working set, rate). By
// default likwid-bench on the Zen 5 VM: 48 KiB L1, 1 MiB L2, an L3 that serves about 16 MiB
// (hwloc says 508 MiB), DRAM near 40 GB/s on one core.
std::vector<SweepPoint> recorded(
    const std::string& kernel, int threads,
    const std::string& file = "recording-zen5-vm-likwid-bench-sweep.csv") {
  return testing_support::recorded_sweep(file, kernel, threads);
}

TEST(Plateaus, RecordedZen5SweepShowsL1L2L3AndDram) {
  for (const char* kernel : {"load_avx512", "copy_avx512"})
    for (int threads : {1, 2}) {
      SCOPED_TRACE(testing::Message() << kernel << ", " << threads << " threads");
      const auto sweep = recorded(kernel, threads);
      ASSERT_GT(sweep.size(), 40u);
      const auto found = find_plateaus(sweep);
      ASSERT_GE(found.size(), 4u);
      // The working sets are all threads' together: the private levels scale with them.
      EXPECT_LT(level_capacity_bytes(found[0], found[1]), threads * 80 * KiB);  // L1: 48 KiB
      EXPECT_GT(level_capacity_bytes(found[0], found[1]), threads * 24 * KiB);
      EXPECT_LT(level_capacity_bytes(found[1], found[2]), threads * 2 * MiB);  // L2: 1 MiB
      EXPECT_GT(level_capacity_bytes(found[1], found[2]), threads * 512 * KiB);
      EXPECT_LT(level_capacity_bytes(found[2], found[3]), 48 * MiB);  // L3: not 508 MiB
      EXPECT_GT(level_capacity_bytes(found[2], found[3]), 8 * MiB);
      EXPECT_EQ(found.back().last_bytes, sweep.back().working_set_bytes);
      EXPECT_GT(found.back().bytes_per_s, 30e9);  // DRAM
      EXPECT_LT(found.back().bytes_per_s, threads * 50e9);
    }
}

TEST(Plateaus, ABusyHostsNoisyDramIsStillTheLastLevel) {
  // A 2-thread read sweep during a busy hour: from 52 MiB to 512 MiB the rate swung
  // 29-81 GB/s from point to point, the fit cut it into pieces too short to be levels, and
  // L3 (4-40 MiB at 203 GB/s) was left last and named DRAM (the levels it holds:
  // memory_hierarchy_test.cpp).
  const auto sweep =
      recorded("read_avx512", 2, "recording-zen5-vm-ridgeline-read-sweep-2thr-busy-dram.csv");
  ASSERT_GT(sweep.size(), 40u);
  const auto found = find_plateaus(sweep);
  ASSERT_GE(found.size(), 4u);
  EXPECT_EQ(found.back().last_bytes, sweep.back().working_set_bytes);
  EXPECT_GE(found.back().first_bytes, 40 * MiB);
  EXPECT_GT(found.back().bytes_per_s, 40e9);
  EXPECT_LT(found.back().bytes_per_s, 70e9);
  // Points after the last plateau too few to be one stay a step: the clean sweep's end.
  std::vector<SweepPoint> clean = synthetic(kFourLevels, 0.02, 3, 64 * MiB);
  const auto clean_found = find_plateaus(clean);
  clean.push_back({clean.back().working_set_bytes * 2, 20e9});
  clean.push_back({clean.back().working_set_bytes * 2, 10e9});
  EXPECT_EQ(find_plateaus(clean).size(), clean_found.size());
}

}  // namespace
}  // namespace ridgeline
