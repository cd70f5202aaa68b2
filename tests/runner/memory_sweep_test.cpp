// The probe's memory sweeps (runner/src/memory_sweep): a real sweep kept small, and the
// levels of a sweep named beside the OS's sizes.
#include "memory_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "byte_sizes.hpp"

namespace ridgeline {
namespace {

using test::KiB;
using test::MiB;

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
  ASSERT_EQ(s.passes.size(), 1u);
  EXPECT_EQ(s.passes[0], s.bytes_per_s);
  // The same arrays serve a second sweep (two arrays for copy).
  const MemorySweep c = sweep_memory(StreamKernel::copy, arrays, StreamIsa::scalar, o);
  EXPECT_EQ(c.working_set_bytes.size(), s.working_set_bytes.size());
}

TEST(MemorySweep, AnotherPassMeasuresTheSameWorkingSetsAndTheRatesBecomeTheirMedian) {
  MemorySweepOptions o;
  o.max_bytes = 256 * KiB;
  o.dram_from_bytes = 4 * MiB;
  o.seconds = 0.001;
  StreamArrays arrays(1);
  MemorySweep s = sweep_memory(StreamKernel::copy, arrays, StreamIsa::scalar, o);
  std::vector<std::int64_t> told;
  repeat_sweep(s, StreamKernel::copy, StreamIsa::scalar, arrays, o,
               [&](std::int64_t bytes, double) { told.push_back(bytes); });
  repeat_sweep(s, StreamKernel::copy, StreamIsa::scalar, arrays, o);
  EXPECT_EQ(told, s.working_set_bytes);
  ASSERT_EQ(s.passes.size(), 3u);
  for (std::size_t i = 0; i < s.working_set_bytes.size(); ++i) {
    std::vector<double> at{s.passes[0][i], s.passes[1][i], s.passes[2][i]};
    std::sort(at.begin(), at.end());
    EXPECT_EQ(s.bytes_per_s[i], at[1]);
    EXPECT_GT(at[0], 0);
  }
}

TEST(MemorySweep, LevelsAreNamedBesideTheReportedSizesAndReplacedOnRepeatedEvidence) {
  MemorySweep s;
  s.kernel = "read";
  s.threads = 2;
  // 3 points per octave: 400 GB/s to 96 KiB, 160 to 2 MiB, 100 to 24 MiB, then 40; three
  // passes 1% apart.
  for (int k = 0; k < 54; ++k) {
    const auto ws = static_cast<std::int64_t>(std::llround(8 * KiB * std::exp2(k / 3.0)));
    s.working_set_bytes.push_back(ws);
    s.bytes_per_s.push_back(ws <= 96 * KiB   ? 400e9
                            : ws <= 2 * MiB  ? 160e9
                            : ws <= 24 * MiB ? 100e9
                                             : 40e9);
  }
  for (double f : {0.99, 1.0, 1.01}) {
    s.passes.push_back(s.bytes_per_s);
    for (std::size_t i = 0; i < s.bytes_per_s.size(); ++i)
      s.passes.back()[i] *= (i % 2 ? f : 2 - f);
  }
  CacheSizes hwloc;
  hwloc.l1d = 48 * KiB;
  hwloc.l2 = 1 * MiB;
  hwloc.l3 = 508 * MiB;  // what the Zen 5 VM's hwloc says
  const auto levels = levels_of({&s}, hwloc);
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_GT(s.noise, 0);  // set from the passes
  EXPECT_EQ(levels[0].name, "L1");
  EXPECT_EQ(levels[0].reported_bytes, 96 * KiB);  // per core, x 2 threads
  EXPECT_EQ(levels[0].decision, CacheSizeDecision::confirmed);
  EXPECT_FALSE(levels[0].disagrees);
  EXPECT_EQ(levels[1].reported_bytes, 2 * MiB);
  EXPECT_FALSE(levels[1].disagrees);
  EXPECT_EQ(levels[2].name, "L3");
  EXPECT_EQ(levels[2].reported_bytes, 508 * MiB);  // shared: not x threads
  EXPECT_EQ(levels[2].decision, CacheSizeDecision::replaced) << levels[2].why;
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
  // One pass: the same step is seen, and the OS's size kept.
  s.passes.resize(1);
  const auto once = levels_of({&s}, hwloc);
  ASSERT_EQ(once.size(), 4u);
  EXPECT_EQ(once[2].decision, CacheSizeDecision::inconclusive);
  EXPECT_FALSE(once[2].disagrees);
}

}  // namespace
}  // namespace ridgeline
