#pragma once
// Distribution-free two-sample statistics for comparing repetitions of a case: the
// Mann–Whitney U test (as SciPy's mannwhitneyu, two-sided), the Hodges–Lehmann shift with
// its confidence interval, and Holm's correction over many tests. docs/compare.md says how
// `ridgeline compare` uses them.
#include <cstddef>
#include <map>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace ridgeline {

enum class RankTestMethod {
  automatic,   // exact where a sample has at most 8 values and nothing is tied, else asymptotic
  exact,       // the U distribution without ties, counted
  asymptotic,  // normal, with the tie correction and a continuity correction of 1/2
};

struct MannWhitney {
  double u = 0;  // U of the first sample (SciPy's statistic): pairs (x, y) with x > y, ties 1/2
  double p = 1;  // two-sided
  RankTestMethod method = RankTestMethod::exact;  // the one used (never automatic)
};

// Two-sided Mann–Whitney U of x against y (each non-empty, finite values).
MannWhitney mann_whitney_u(std::span<const double> x, std::span<const double> y,
                           RankTestMethod method = RankTestMethod::automatic);

// P(U <= k) under the null hypothesis for samples of n1 and n2 untied values, k = 0 … n1·n2.
std::vector<double> mann_whitney_cdf(int n1, int n2);

// The smallest two-sided p-value mann_whitney_u (automatic) gives samples of n1 and n2 values:
// that of fully separated samples. Exact, 2 / C(n1 + n2, n1), where a sample has at most 8
// values; the normal approximation's where both have more.
double smallest_two_sided_p(int n1, int n2);

// Holm's step-down adjusted p-values, in the order given: reject where adjusted < alpha
// controls the family-wise error rate at alpha.
std::vector<double> holm_adjust(std::span<const double> p);

// The Hodges–Lehmann estimate of the shift of y against x (the median of every y_j − x_i)
// and its distribution-free confidence interval: the k-th smallest and k-th largest
// difference, k from U's distribution (exact or normal, as mann_whitney_u chose).
struct ShiftEstimate {
  double estimate = 0;
  double low = 0;
  double high = 0;
  double confidence = 0;  // what the interval reaches: at least 1 − alpha where the sizes allow
};
ShiftEstimate hodges_lehmann(std::span<const double> x, std::span<const double> y, double alpha,
                             RankTestMethod method = RankTestMethod::automatic);

// One sample against all the others of a large pool it is part of (ridgeline fleet: a node's
// repetitions against every other node's): the pool sorted once, then each member's test and
// shift as mann_whitney_u(x, rest) and hodges_lehmann(rest, x) give them, without forming the
// rest or its |x|·|rest| differences: O(|x| log |pool|) per count, U's exact distribution
// computed once per sample size. 1,000 nodes × 5 repetitions take 60,000 such tests in about
// a second, where the two-sample forms would take an hour.
class RankPool {
 public:
  explicit RankPool(std::vector<double> values);  // finite; every member's values among them
  std::size_t size() const { return sorted_.size(); }
  // x's values must be in the pool (as a multiset); the rest is the pool without them.
  MannWhitney test(std::span<const double> x,
                   RankTestMethod method = RankTestMethod::automatic) const;
  // The shift of x against the rest (the median of every x_i - rest_j) and its interval.
  ShiftEstimate shift(std::span<const double> x, double alpha,
                      RankTestMethod method = RankTestMethod::automatic) const;

 private:
  std::vector<double> member(std::span<const double> x) const;  // x sorted, checked
  const std::vector<double>* exact_cdf(std::size_t n1, RankTestMethod method) const;
  std::vector<double> sorted_;
  double tie_term_ = 0;  // of the whole pool: every test's combined sample is the pool
  bool ties_ = false;
  mutable std::map<std::size_t, std::vector<double>> cdfs_;  // by |x|
  // The interval's order statistic and tail, by |x|, alpha and method.
  mutable std::map<std::tuple<std::size_t, double, RankTestMethod>, std::pair<std::size_t, double>>
      orders_;
};

}  // namespace ridgeline
