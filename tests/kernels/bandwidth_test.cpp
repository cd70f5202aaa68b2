// The bandwidth measurement times every requested instruction width over the same arrays
// and keeps the fastest as the ceiling.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ceilings/stream_sweeps.hpp"
#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline {
namespace {

TEST(Bandwidth, EveryWidthIsTimedAndTheBestIsTheCeiling) {
  const auto widths = stream_isas(cpu_features());
  ASSERT_GE(widths.size(), 2u);  // scalar and AVX2 on any x86-64-v3 machine
  EXPECT_EQ(widths.front(), StreamIsa::scalar);
  for (StreamKernel k : stream_kernels()) {
    const BandwidthMeasurement m = measure_bandwidth(k, 1 << 20, 1, widths, 0.01, 2);
    ASSERT_EQ(m.per_isa.size(), widths.size()) << to_string(k);
    double best = 0;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      EXPECT_EQ(m.per_isa[i].first, widths[i]);
      EXPECT_GT(m.per_isa[i].second, 1e8) << to_string(k) << " " << to_string(widths[i]);
      best = std::max(best, m.per_isa[i].second);
    }
    EXPECT_EQ(m.best, best);
    const auto winner = std::find_if(m.per_isa.begin(), m.per_isa.end(),
                                     [&](const auto& p) { return p.second == best; });
    EXPECT_EQ(m.best_isa, winner->first);
  }
}

// Each loop does its whole job on every repeat: the timed figure counts repeats x n elements
// per stream, so a loop that stopped early or skipped repeats would read as a higher rate.
TEST(Bandwidth, EachWidthsLoopsDoEveryElementOnEveryRepeat) {
  for (StreamIsa isa : stream_isas(cpu_features())) {
    const ceilings::StreamSweeps& sw = ceilings::sweeps_for(isa);
    constexpr std::int64_t n = 192;
    std::vector<double> a(n), b(n), c(n), d(n);
    for (std::int64_t i = 0; i < n; ++i) {
      b[i] = static_cast<double>(i);
      c[i] = 2.0;
      d[i] = 0.5;
    }
    EXPECT_EQ(sw.read(b.data(), n, 3), 3.0 * (n - 1) * n / 2) << to_string(isa);
    EXPECT_EQ(sw.read(b.data(), n, 0), 0.0) << to_string(isa);
    sw.write(a.data(), n, 7.0, 2);
    EXPECT_EQ(std::count(a.begin(), a.end(), 7.0), n) << to_string(isa);
    sw.copy(a.data(), b.data(), n, 2);
    EXPECT_EQ(a, b) << to_string(isa);
    sw.triad(a.data(), b.data(), c.data(), d.data(), n, 2);
    for (std::int64_t i = 0; i < n; ++i)
      ASSERT_EQ(a[i], 2.0 * i + 0.5) << to_string(isa) << " " << i;
  }
}

// Two streams in mappings of their own fell to the L2's rate from 8-12 KiB on Zen 3 and
// Zen 4 (the Zen 3 VM's first probe: "L1 6 KiB to 10 KiB"). Back to back in one mapping, as
// likwid-bench places them, each 17 cache lines further past a page boundary, the copy keeps
// its rate to the L1's size (227 and 159 GB/s at 6 and 20 KiB under load, 0.95-1 quiet, on
// the Zen 4 VM: a figure the probe's sweep reports, not a test).
TEST(StreamArrays, StreamsAreBackToBackInOneMappingSkewedByCacheLines) {
  StreamArrays arrays(1);
  for (std::int64_t elements : {64, 512, 768, 2560}) {
    const auto s = arrays.streams(0, 4, elements);
    const std::int64_t page = 512, skew = 17 * 8;  // doubles
    const std::int64_t stride = (elements + page - 1) / page * page + skew;
    for (int i = 1; i < 4; ++i) EXPECT_EQ(s[i] - s[i - 1], stride) << elements << " elements";
    for (int i = 0; i < 4; ++i)  // each stream starts i x 17 lines past a page boundary
      EXPECT_EQ((s[i] - s[0]) % page, (i * skew) % page) << elements;
  }
}

TEST(Bandwidth, OneWidthAloneAndNoWidthIsAnError) {
  const auto m = measure_bandwidth(StreamKernel::triad, 1 << 20, 1, {StreamIsa::scalar}, 0.01, 1);
  ASSERT_EQ(m.per_isa.size(), 1u);
  EXPECT_EQ(m.best_isa, StreamIsa::scalar);
  EXPECT_THROW(measure_bandwidth(StreamKernel::copy, 1 << 20, 1, {}, 0.01, 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace ridgeline
