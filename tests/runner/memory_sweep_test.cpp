// The probe's memory sweeps (runner/src/memory_sweep): a real sweep kept small, and the
// levels of a sweep named beside the OS's sizes.
#include "memory_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ridgeline {
namespace {

constexpr std::int64_t KiB = 1024, MiB = 1024 * KiB;

TEST(MemorySweep, GrowsByPointsPerOctaveUpToTheBoundAndReusesItsArrays) {
  MemorySweepOptions o;
  o.max_bytes = 2 * MiB;
  o.dram_from_bytes = 4 * MiB;  // never reached: the sweep stops at max_bytes
  o.seconds = 0.001;
  o.trials = 1;
  StreamArrays arrays(1);
  std::vector<std::int64_t> told;
  const MemorySweep s = sweep_memory(StreamKernel::read, arrays, StreamIsa::scalar, o,
                                     [&](std::int64_t bytes, double) { told.push_back(bytes); });
  EXPECT_EQ(s.kernel, "read");
  EXPECT_EQ(s.isa, "scalar");
  EXPECT_EQ(s.threads, 1);
  ASSERT_EQ(s.working_set_bytes.size(), 28u);  // 4 KiB to 2 MiB: 9 octaves, 3 points each, + 1
  EXPECT_EQ(s.working_set_bytes, told);
  EXPECT_EQ(s.working_set_bytes.front(), 4 * KiB);
  EXPECT_EQ(s.working_set_bytes.back(), 2 * MiB);
  for (std::size_t i = 1; i < s.working_set_bytes.size(); ++i)
    EXPECT_NEAR(static_cast<double>(s.working_set_bytes[i]) / s.working_set_bytes[i - 1],
                std::exp2(1.0 / 3), 0.01);
  for (double r : s.bytes_per_s) EXPECT_GT(r, 0);
  // The same arrays serve a second sweep (two arrays for copy).
  const MemorySweep c = sweep_memory(StreamKernel::copy, arrays, StreamIsa::scalar, o);
  EXPECT_EQ(c.working_set_bytes.size(), s.working_set_bytes.size());
}

TEST(MemorySweep, LevelsAreNamedBesideTheReportedSizesAndFlaggedPast2x) {
  MemorySweep s;
  s.kernel = "read";
  s.threads = 2;
  // 3 points per octave: 400 GB/s to 96 KiB, 160 to 2 MiB, 100 to 24 MiB, then 40.
  for (int k = 0; k < 54; ++k) {
    const auto ws = static_cast<std::int64_t>(std::llround(8 * KiB * std::exp2(k / 3.0)));
    s.working_set_bytes.push_back(ws);
    s.bytes_per_s.push_back(ws <= 96 * KiB   ? 400e9
                            : ws <= 2 * MiB  ? 160e9
                            : ws <= 24 * MiB ? 100e9
                                             : 40e9);
  }
  CacheSizes hwloc;
  hwloc.l1d = 48 * KiB;
  hwloc.l2 = 1 * MiB;
  hwloc.l3 = 508 * MiB;  // what the Zen 5 VM's hwloc says
  const auto levels = levels_of(s, hwloc);
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[0].name, "L1");
  EXPECT_EQ(levels[0].reported_bytes, 96 * KiB);  // per core, x 2 threads
  EXPECT_FALSE(levels[0].disagrees);
  EXPECT_EQ(levels[1].reported_bytes, 2 * MiB);
  EXPECT_FALSE(levels[1].disagrees);
  EXPECT_EQ(levels[2].name, "L3");
  EXPECT_EQ(levels[2].reported_bytes, 508 * MiB);  // shared: not x threads
  EXPECT_TRUE(levels[2].disagrees);
  EXPECT_GT(levels[2].capacity_bytes, 16 * MiB);
  EXPECT_LT(levels[2].capacity_bytes, 40 * MiB);
  EXPECT_EQ(levels[3].name, "DRAM");
  EXPECT_EQ(levels[3].capacity_bytes, 0);
  EXPECT_EQ(levels[3].reported_bytes, 0);
  for (const auto& l : levels) {
    EXPECT_EQ(l.kernel, "read");
    EXPECT_EQ(l.threads, 2);
  }
}

}  // namespace
}  // namespace ridgeline
