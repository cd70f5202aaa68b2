// The bandwidth measurement times every requested instruction width over the same arrays
// and keeps the fastest as the ceiling.
#include <gtest/gtest.h>

#include <algorithm>

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

TEST(Bandwidth, OneWidthAloneAndNoWidthIsAnError) {
  const auto m = measure_bandwidth(StreamKernel::triad, 1 << 20, 1, {StreamIsa::scalar}, 0.01, 1);
  ASSERT_EQ(m.per_isa.size(), 1u);
  EXPECT_EQ(m.best_isa, StreamIsa::scalar);
  EXPECT_THROW(measure_bandwidth(StreamKernel::copy, 1 << 20, 1, {}, 0.01, 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace ridgeline
