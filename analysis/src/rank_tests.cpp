#include "ridgeline/analysis/rank_tests.hpp"

#include <algorithm>
#include <bit>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace ridgeline {

namespace {

struct Ranked {
  double r1 = 0;        // rank sum of the first sample (average ranks for ties)
  double tie_term = 0;  // sum of t^3 - t over groups of t tied values
  bool ties = false;
};

Ranked rank(std::span<const double> x, std::span<const double> y) {
  std::vector<std::pair<double, bool>> all;  // value, from x
  all.reserve(x.size() + y.size());
  for (double v : x) all.emplace_back(v, true);
  for (double v : y) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Ranked r;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double average = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second) r.r1 += average;
    r.tie_term += t * t * t - t;
    r.ties = r.ties || j - i > 1;
    i = j;
  }
  return r;
}

// The standard deviation of U under the null hypothesis, with the tie correction.
double u_sigma(double n1, double n2, double tie_term) {
  const double n = n1 + n2;
  return std::sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
}

RankTestMethod choose(std::size_t n1, std::size_t n2, bool ties, RankTestMethod method) {
  if (method != RankTestMethod::automatic) return method;
  if (n1 > 8 && n2 > 8) return RankTestMethod::asymptotic;
  return ties ? RankTestMethod::asymptotic : RankTestMethod::exact;
}

void check_samples(std::span<const double> x, std::span<const double> y) {
  if (x.empty() || y.empty()) throw std::invalid_argument("rank test: an empty sample");
  for (auto s : {x, y})
    for (double v : s)
      if (!std::isfinite(v)) throw std::invalid_argument("rank test: a value that is not finite");
}

// How many of the differences b - a (a from xs, b from ys, both sorted; computed as doubles)
// are at most t: for each b, the a with b - a <= t are a suffix of xs, and it only shrinks
// from the left as b grows (rounding is monotone), so one pass of two pointers counts them.
std::size_t differences_at_most(const std::vector<double>& xs, const std::vector<double>& ys,
                                double t) {
  std::size_t n = 0, first = 0;  // xs[first...] are the a with b - a <= t
  for (double b : ys) {
    while (first < xs.size() && !(b - xs[first] <= t)) ++first;
    n += xs.size() - first;
  }
  return n;
}

// A double's place in the order of doubles, as an integer (monotone, no gaps): bisection over
// it finds an exact order statistic in at most 64 steps.
std::int64_t order_of(double v) {
  const auto bits = std::bit_cast<std::int64_t>(v);
  return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
}
double from_order(std::int64_t o) {
  return std::bit_cast<double>(o < 0 ? std::numeric_limits<std::int64_t>::min() - o : o);
}

// The k-th smallest (1-based) of the |xs|·|ys| differences b - a, without forming them: the
// smallest double t with at least k differences <= t, which is that difference itself.
// O((|xs| + |ys|) · 64) time and no memory beyond the samples: the n1·n2 differences of
// 40,000 repetitions a side would be 12.8 GB (compare ran out of memory there).
double kth_difference(const std::vector<double>& xs, const std::vector<double>& ys, std::size_t k) {
  std::int64_t lo = order_of(ys.front() - xs.back()), hi = order_of(ys.back() - xs.front());
  while (lo < hi) {  // invariant: the answer's order is in [lo, hi]
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    const std::int64_t mid = lo + static_cast<std::int64_t>(span / 2);
    if (differences_at_most(xs, ys, from_order(mid)) >= k)
      hi = mid;
    else
      lo = mid + 1;
  }
  return from_order(lo);
}

}  // namespace

std::vector<double> mann_whitney_cdf(int n1, int n2) {
  if (n1 < 1 || n2 < 1) throw std::invalid_argument("mann_whitney_cdf: a sample size below 1");
  // U's distribution is the Gaussian binomial [n1 + n2 choose m]_q over C(n1 + n2, m), built
  // one factor (1 - q^(n + i)) / (1 - q^i) at a time and kept normalised (each step's
  // coefficients sum to 1), so no count overflows whatever the sizes.
  const int m = std::min(n1, n2), n = std::max(n1, n2);
  std::vector<double> pmf(static_cast<std::size_t>(m) * n + 1, 0.0);
  pmf[0] = 1;
  for (int i = 1; i <= m; ++i) {
    const std::size_t degree = static_cast<std::size_t>(i) * n;
    for (std::size_t k = static_cast<std::size_t>(i); k <= degree; ++k) pmf[k] += pmf[k - i];
    for (std::size_t k = degree; k >= static_cast<std::size_t>(n + i); --k)
      pmf[k] -= pmf[k - static_cast<std::size_t>(n + i)];
    const double scale = static_cast<double>(i) / static_cast<double>(n + i);
    for (std::size_t k = 0; k <= degree; ++k) pmf[k] *= scale;
  }
  std::partial_sum(pmf.begin(), pmf.end(), pmf.begin());
  return pmf;
}

MannWhitney mann_whitney_u(std::span<const double> x, std::span<const double> y,
                           RankTestMethod method) {
  check_samples(x, y);
  const Ranked r = rank(x, y);
  const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size());
  MannWhitney out;
  out.u = r.r1 - n1 * (n1 + 1) / 2;
  const double u = std::max(out.u, n1 * n2 - out.u);
  out.method = choose(x.size(), y.size(), r.ties, method);
  if (out.method == RankTestMethod::exact) {
    // P(U >= k) = P(U <= n1 n2 - k) by symmetry; SciPy takes k = floor(U) where ties made
    // U a half.
    const auto cdf = mann_whitney_cdf(static_cast<int>(x.size()), static_cast<int>(y.size()));
    const auto k = static_cast<std::size_t>(n1 * n2 - std::floor(u));
    out.p = 2 * cdf[k];
  } else {
    const double sigma = u_sigma(n1, n2, r.tie_term);
    // The continuity correction moves U half a step towards the centre: the mass at U counts.
    out.p = sigma > 0 ? std::erfc((u - n1 * n2 / 2 - 0.5) / sigma / std::sqrt(2.0)) : 2;
  }
  out.p = std::clamp(out.p, 0.0, 1.0);
  return out;
}

double smallest_two_sided_p(int n1, int n2) {
  if (n1 < 1 || n2 < 1) throw std::invalid_argument("smallest_two_sided_p: a sample size below 1");
  // The test itself on fully separated samples: exact where it counts (2 / C(n1 + n2, n1)),
  // the normal approximation where both samples pass 8 (for 10 + 10, 1.8e-4, not the
  // exact 1.1e-5).
  std::vector<double> x(static_cast<std::size_t>(n1)), y(static_cast<std::size_t>(n2));
  std::iota(x.begin(), x.end(), 0.0);
  std::iota(y.begin(), y.end(), static_cast<double>(n1));
  return mann_whitney_u(x, y).p;
}

std::vector<double> holm_adjust(std::span<const double> p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[a] < p[b]; });
  std::vector<double> adjusted(p.size());
  double running = 0;  // adjusted values never decrease along the sorted order
  const double m = static_cast<double>(p.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    running = std::max(running, std::min(1.0, (m - static_cast<double>(i)) * p[order[i]]));
    adjusted[order[i]] = running;
  }
  return adjusted;
}

ShiftEstimate hodges_lehmann(std::span<const double> x, std::span<const double> y, double alpha,
                             RankTestMethod method) {
  check_samples(x, y);
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("hodges_lehmann: alpha not in (0, 1)");
  std::vector<double> xs(x.begin(), x.end()), ys(y.begin(), y.end());
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  const auto d = [&](std::size_t k) { return kth_difference(xs, ys, k); };  // 1-based
  const std::size_t count = xs.size() * ys.size();
  ShiftEstimate s;
  s.estimate = count % 2 ? d(count / 2 + 1) : (d(count / 2) + d(count / 2 + 1)) / 2;
  const Ranked r = rank(x, y);
  const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size());
  // k: the largest with P(U <= k - 1) <= alpha / 2; the interval is [d_(k), d_(count + 1 - k)]
  // and covers the shift with probability 1 - 2 P(U <= k - 1). Where even k = 1 misses
  // (too few values), the whole range of differences, at the confidence it has.
  std::size_t k = 1;
  double tail = 0;  // P(U <= k - 1)
  if (choose(x.size(), y.size(), r.ties, method) == RankTestMethod::exact) {
    const auto cdf = mann_whitney_cdf(static_cast<int>(x.size()), static_cast<int>(y.size()));
    while (k < (count + 1) / 2 && cdf[k] <= alpha / 2) ++k;
    tail = cdf[k - 1];
  } else {
    const double sigma = u_sigma(n1, n2, r.tie_term);
    const boost::math::normal normal;
    const double z = boost::math::quantile(normal, 1 - alpha / 2);
    const double raw = std::floor(n1 * n2 / 2 - z * sigma);
    k = static_cast<std::size_t>(std::clamp(raw, 1.0, static_cast<double>((count + 1) / 2)));
    tail = sigma > 0
               ? boost::math::cdf(normal, (static_cast<double>(k) - 0.5 - n1 * n2 / 2) / sigma)
               : 0.5;
  }
  s.low = d(k);
  s.high = d(count + 1 - k);
  s.confidence = std::max(0.0, 1 - 2 * tail);
  return s;
}

}  // namespace ridgeline
