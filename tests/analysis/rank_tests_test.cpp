// The rank statistics of `compare`: U's exact distribution against enumeration, U and p
// against SciPy's mannwhitneyu (Debian's python3-scipy, run as an oracle), Hodges–Lehmann
// against the brute-force order statistics, Holm against a worked example.
#include "ridgeline/analysis/rank_tests.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <tuple>

namespace ridgeline {
namespace {

// U's distribution for sizes n1, n2 by listing every way to choose the first sample's ranks.
std::vector<double> enumerated_cdf(int n1, int n2) {
  const int n = n1 + n2;
  std::vector<double> count(static_cast<std::size_t>(n1 * n2 + 1), 0);
  double total = 0;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (__builtin_popcount(mask) != n1) continue;
    int u = 0, below = 0;  // U of the first sample: pairs where its value is the larger
    for (int i = 0; i < n; ++i) {
      if (mask & (1u << i))
        u += below;
      else
        ++below;
    }
    count[static_cast<std::size_t>(u)] += 1;
    total += 1;
  }
  double running = 0;
  for (auto& c : count) c = (running += c) / total;
  return count;
}

TEST(RankTests, ExactDistributionIsTheEnumeratedOne) {
  for (int n1 = 1; n1 <= 7; ++n1)
    for (int n2 = 1; n2 <= 7; ++n2) {
      const auto expected = enumerated_cdf(n1, n2);
      const auto got = mann_whitney_cdf(n1, n2);
      ASSERT_EQ(got.size(), expected.size());
      for (std::size_t k = 0; k < got.size(); ++k)
        EXPECT_NEAR(got[k], expected[k], 1e-12) << n1 << "x" << n2 << " k=" << k;
    }
}

TEST(RankTests, SmallestPIsThatOfSeparatedSamples) {
  EXPECT_DOUBLE_EQ(smallest_two_sided_p(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(smallest_two_sided_p(1, 1), 1.0);
  EXPECT_NEAR(smallest_two_sided_p(5, 5), 2.0 / 252, 1e-15);
  // Both above 8: the normal approximation, z = (100 - 50 - 0.5) / sqrt(100 * 21 / 12).
  EXPECT_NEAR(smallest_two_sided_p(10, 10), std::erfc(49.5 / std::sqrt(175.0) / std::sqrt(2.0)),
              1e-15);
  EXPECT_GT(smallest_two_sided_p(10, 10), 2.0 / 184756);  // more than the exact 1.1e-5
  const std::vector<double> low{1, 2, 3, 4, 5}, high{6, 7, 8, 9, 10};
  const auto r = mann_whitney_u(low, high, RankTestMethod::exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.p, smallest_two_sided_p(5, 5), 1e-15);
}

TEST(RankTests, HolmOnAWorkedExample) {
  // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> kept at 0.06.
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
  const auto adjusted = holm_adjust(p);
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_NEAR(adjusted[0], 0.03, 1e-15);
  EXPECT_NEAR(adjusted[1], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[2], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[3], 0.02, 1e-15);
  EXPECT_EQ(holm_adjust(std::vector<double>{0.6, 0.7})[1], 1.0);  // capped at 1
}

// Random samples: sizes 1-25, continuous or rounded to a few values (ties), shifted or not.
struct Sample {
  std::vector<double> x, y;
  std::string method;
};

std::vector<Sample> random_samples(int count) {
  std::mt19937_64 rng(20261124);
  std::uniform_int_distribution<int> size(1, 25), coin(0, 3);
  std::normal_distribution<double> noise(0, 1);
  const char* methods[] = {"auto", "exact", "asymptotic"};
  std::vector<Sample> out;
  for (int i = 0; i < count; ++i) {
    Sample s;
    const bool ties = coin(rng) == 0;
    const double shift = coin(rng) * 0.5;
    auto draw = [&](double mean) {
      const double v = mean + noise(rng);
      return ties ? std::round(v * 2) / 2 : v;
    };
    for (int k = size(rng); k > 0; --k) s.x.push_back(draw(0));
    for (int k = size(rng); k > 0; --k) s.y.push_back(draw(shift));
    s.method = methods[i % 3];
    out.push_back(std::move(s));
  }
  return out;
}

RankTestMethod method_named(const std::string& name) {
  return name == "exact"        ? RankTestMethod::exact
         : name == "asymptotic" ? RankTestMethod::asymptotic
                                : RankTestMethod::automatic;
}

TEST(RankTests, UAndPAreSciPys) {
  const char* python = "/usr/bin/python3";
  if (std::system((std::string(python) + " -c 'import scipy' 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << python << " cannot import scipy: install python3-scipy (scripts/install-deps)";
  const auto samples = random_samples(450);
  const auto dir =
      std::filesystem::temp_directory_path() / ("ridgeline-scipy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  nlohmann::json in = nlohmann::json::array();
  for (const auto& s : samples) in.push_back({{"x", s.x}, {"y", s.y}, {"method", s.method}});
  std::ofstream(dir / "in.json") << in.dump();
  const std::string cmd = std::string(python) + " " + RIDGELINE_SCIPY_ORACLE + " " +
                          (dir / "in.json").string() + " " + (dir / "out.json").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto out = nlohmann::json::parse(std::ifstream(dir / "out.json"));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(out.size(), samples.size());
  int exact = 0, asymptotic = 0, tied = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& s = samples[i];
    const auto r = mann_whitney_u(s.x, s.y, method_named(s.method));
    EXPECT_NEAR(r.u, out[i]["u"].get<double>(), 1e-9) << "sample " << i;
    EXPECT_NEAR(r.p, out[i]["p"].get<double>(), 1e-9)
        << "sample " << i << " (" << s.method << ", " << s.x.size() << " x " << s.y.size() << ")";
    (r.method == RankTestMethod::exact ? exact : asymptotic) += 1;
    std::vector<double> all = s.x;
    all.insert(all.end(), s.y.begin(), s.y.end());
    std::sort(all.begin(), all.end());
    tied += std::adjacent_find(all.begin(), all.end()) != all.end();
  }
  // Both methods and ties were exercised, not only the easy path.
  EXPECT_GT(exact, 100);
  EXPECT_GT(asymptotic, 100);
  EXPECT_GT(tied, 50);
}

TEST(RankTests, HodgesLehmannIsTheMedianOfDifferencesWithOrderStatisticBounds) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, 1);
  for (int n1 = 2; n1 <= 7; ++n1)
    for (int n2 = 2; n2 <= 7; ++n2) {
      std::vector<double> x, y;
      for (int i = 0; i < n1; ++i) x.push_back(noise(rng));
      for (int i = 0; i < n2; ++i) y.push_back(noise(rng) + 0.3);
      std::vector<double> d;
      for (double a : x)
        for (double b : y) d.push_back(b - a);
      std::sort(d.begin(), d.end());
      const std::size_t c = d.size();
      const double median = c % 2 ? d[c / 2] : (d[c / 2 - 1] + d[c / 2]) / 2;
      // k from the enumerated distribution: the largest with P(U <= k - 1) <= alpha / 2.
      const auto cdf = enumerated_cdf(n1, n2);
      std::size_t k = 1;
      while (k < (c + 1) / 2 && cdf[k] <= 0.025) ++k;
      const auto s = hodges_lehmann(x, y, 0.05, RankTestMethod::exact);
      EXPECT_DOUBLE_EQ(s.estimate, median) << n1 << "x" << n2;
      EXPECT_DOUBLE_EQ(s.low, d[k - 1]) << n1 << "x" << n2;
      EXPECT_DOUBLE_EQ(s.high, d[c - k]) << n1 << "x" << n2;
      EXPECT_NEAR(s.confidence, 1 - 2 * cdf[k - 1], 1e-12);
      if (smallest_two_sided_p(n1, n2) < 0.05) {
        EXPECT_GE(s.confidence, 0.95);
      }
    }
}

TEST(RankTests, HodgesLehmannIntervalCoversTheShiftAtItsConfidence) {
  // Normal approximation (10 x 10): over 2000 draws with a true shift of 1, the interval
  // holds it about 95% of the time.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 1);
  int covered = 0;
  const int draws = 2000;
  for (int t = 0; t < draws; ++t) {
    std::vector<double> x, y;
    for (int i = 0; i < 10; ++i) x.push_back(noise(rng)), y.push_back(noise(rng) + 1);
    const auto s = hodges_lehmann(x, y, 0.05);
    covered += s.low <= 1 && 1 <= s.high;
  }
  EXPECT_GT(covered, draws * 0.93);
  EXPECT_LT(covered, draws * 0.98);
}

// The order statistics are selected without forming the n1·n2 differences: the same values
// as sorting them all, ties, negative and mixed signs, and unequal sizes included, and
// 40,000 repetitions a side (1.6e9 differences, 12.8 GB formed) in the memory of the samples.
TEST(RankTests, HodgesLehmannSelectsTheOrderStatisticsWithoutFormingEveryDifference) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0, 1);
  for (const auto& sizes : {std::tuple{300, 211, false}, std::tuple{57, 400, true},
                            std::tuple{1, 999, false}, std::tuple{250, 250, true}}) {
    // Not a structured binding: clang 14 (the sanitizer tree) cannot capture one in a lambda.
    const int n1 = std::get<0>(sizes), n2 = std::get<1>(sizes);
    const bool tied = std::get<2>(sizes);
    std::vector<double> x, y;
    const auto value = [&](double shift) {
      const double v = noise(rng) * 1e-3 + shift;
      return tied ? std::round(v * 1e4) / 1e4 : v;  // ties: values on a grid
    };
    for (int i = 0; i < n1; ++i) x.push_back(value(-0.5));
    for (int i = 0; i < n2; ++i) y.push_back(value(-0.4999));
    std::vector<double> d;
    for (double a : x)
      for (double b : y) d.push_back(b - a);
    std::sort(d.begin(), d.end());
    const std::size_t c = d.size();
    const auto s = hodges_lehmann(x, y, 0.05);
    EXPECT_EQ(s.estimate, c % 2 ? d[c / 2] : (d[c / 2 - 1] + d[c / 2]) / 2) << n1 << "x" << n2;
    const auto at = std::lower_bound(d.begin(), d.end(), s.low);
    ASSERT_NE(at, d.end());
    EXPECT_EQ(*at, s.low);  // the bounds are differences themselves
    EXPECT_TRUE(std::binary_search(d.begin(), d.end(), s.high));
  }
  std::vector<double> x(40000), y(40000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::log(1e-3 * (1 + 0.01 * noise(rng)));
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::log(1.1e-3 * (1 + 0.01 * noise(rng)));
  const auto s = hodges_lehmann(x, y, 0.05);
  EXPECT_NEAR(std::exp(s.estimate), 1.1, 0.001);
  EXPECT_LT(s.low, s.estimate);
  EXPECT_GT(s.high, s.estimate);
  EXPECT_GE(s.confidence, 0.949);
}

TEST(RankTests, RefusesEmptyOrNonFiniteSamples) {
  const std::vector<double> empty, one{1.0}, nan{std::nan("")};
  EXPECT_THROW(mann_whitney_u(empty, one), std::invalid_argument);
  EXPECT_THROW(mann_whitney_u(one, nan), std::invalid_argument);
  EXPECT_THROW(hodges_lehmann(one, one, 0), std::invalid_argument);
}

}  // namespace
}  // namespace ridgeline
