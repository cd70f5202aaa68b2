#pragma once
// Distribution-free two-sample statistics for comparing repetitions of a case: the
// Mann–Whitney U test (as SciPy's mannwhitneyu, two-sided), the Hodges–Lehmann shift with
// its confidence interval, and Holm's correction over many tests. docs/compare.md says how
// `ridgeline compare` uses them.
#include <span>
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

}  // namespace ridgeline
