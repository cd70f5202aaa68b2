// PELT against the unpruned optimal partition, and the steps it finds in series of times.
#include "ridgeline/analysis/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace ridgeline {
namespace {

// The optimal partition by the O(n^2) recursion over every last-segment start.
std::vector<std::size_t> optimal_partition(const std::vector<double>& x, double penalty,
                                           std::size_t min_length) {
  const std::size_t n = x.size();
  auto cost = [&](std::size_t a, std::size_t b) {
    double mean = 0;
    for (std::size_t i = a; i < b; ++i) mean += x[i];
    mean /= static_cast<double>(b - a);
    double c = 0;
    for (std::size_t i = a; i < b; ++i) c += (x[i] - mean) * (x[i] - mean);
    return c;
  };
  std::vector<double> f(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> last(n + 1, 0);
  f[0] = -penalty;
  for (std::size_t t = 1; t <= n; ++t)
    for (std::size_t s = 0; s + min_length <= t; ++s)
      if (const double v = f[s] + cost(s, t) + penalty; v < f[t]) f[t] = v, last[t] = s;
  std::vector<std::size_t> starts;
  for (std::size_t t = n; last[t] > 0; t = last[t]) starts.push_back(last[t]);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

TEST(ChangePoints, PeltIsTheOptimalPartition) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0, 1);
  std::uniform_int_distribution<int> level(0, 4);
  int with_changes = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> x;
    double mean = 0;
    for (int i = 0; i < 40; ++i) {
      if (i % 10 == 0) mean = level(rng) * 2.0;
      x.push_back(mean + noise(rng));
    }
    const double penalty = 2 * std::log(40.0);
    for (std::size_t min_length : {1u, 2u, 3u}) {
      const auto expected = optimal_partition(x, penalty, min_length);
      EXPECT_EQ(pelt_mean_shifts(x, penalty, min_length), expected)
          << "trial " << trial << ", segments of at least " << min_length;
      with_changes += !expected.empty();
    }
  }
  EXPECT_GT(with_changes, 450);  // the series did have steps to find
}

std::vector<double> log_times(std::mt19937_64& rng, int n, double cv, std::size_t step_at,
                              double factor) {
  std::normal_distribution<double> noise(0, cv);
  std::vector<double> x;
  for (int i = 0; i < n; ++i)
    x.push_back(std::log(1e-3 * (static_cast<std::size_t>(i) >= step_at ? factor : 1)) +
                noise(rng));
  return x;
}

TEST(ChangePoints, ATenPercentStepIsFoundWhereItIs) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 50; ++trial) {
    const auto x = log_times(rng, 30, 0.01, 17, 1.10);
    const auto steps = mean_steps(x, std::log(1.05));
    ASSERT_EQ(steps.size(), 1u) << "trial " << trial;
    EXPECT_EQ(steps[0].at, 17u);
    EXPECT_NEAR(std::exp(steps[0].after - steps[0].before), 1.10, 0.02);
  }
}

TEST(ChangePoints, NoiseAndStepsBelowTheMinimumAreNoSteps) {
  std::mt19937_64 rng(5);
  int found = 0;
  for (int trial = 0; trial < 200; ++trial) {
    found += !mean_steps(log_times(rng, 30, 0.02, 0, 1), std::log(1.05)).empty();
    // A clean 3% step is real, but smaller than the 5% asked for.
    found += !mean_steps(log_times(rng, 30, 0.002, 15, 1.03), std::log(1.05)).empty();
  }
  EXPECT_EQ(found, 0);
  EXPECT_EQ(mean_steps(log_times(rng, 30, 0.002, 15, 1.03), std::log(1.01)).size(), 1u);
  EXPECT_TRUE(mean_steps(std::vector<double>{1, 2, 3}, 0.01).empty());  // too short
}

}  // namespace
}  // namespace ridgeline
