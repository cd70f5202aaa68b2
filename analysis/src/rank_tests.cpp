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
#include <tuple>
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

namespace {

// Which order statistics of the n1·n2 differences bound the shift's interval: k, the largest
// with P(U <= k - 1) <= alpha / 2 (the interval is [d_(k), d_(count + 1 - k)] and covers the
// shift with probability 1 - 2 P(U <= k - 1)), and that tail. Where even k = 1 misses (too few
// values), the whole range of differences, at the confidence it has. `cdf` is U's exact
// distribution, or null for the normal approximation with `tie_term`.
std::pair<std::size_t, double> interval_order(double n1, double n2, double tie_term, double alpha,
                                              const std::vector<double>* cdf) {
  const auto count = static_cast<std::size_t>(n1 * n2);
  std::size_t k = 1;
  if (cdf) {
    while (k < (count + 1) / 2 && (*cdf)[k] <= alpha / 2) ++k;
    return {k, (*cdf)[k - 1]};
  }
  const double sigma = u_sigma(n1, n2, tie_term);
  const boost::math::normal normal;
  const double z = boost::math::quantile(normal, 1 - alpha / 2);
  const double raw = std::floor(n1 * n2 / 2 - z * sigma);
  k = static_cast<std::size_t>(std::clamp(raw, 1.0, static_cast<double>((count + 1) / 2)));
  const double tail =
      sigma > 0 ? boost::math::cdf(normal, (static_cast<double>(k) - 0.5 - n1 * n2 / 2) / sigma)
                : 0.5;
  return {k, tail};
}

// The estimate and interval from the k-th smallest difference `d` (1-based) of `count`.
template <class Kth>
ShiftEstimate shift_from(const Kth& d, std::size_t count, std::pair<std::size_t, double> order) {
  ShiftEstimate s;
  s.estimate = count % 2 ? d(count / 2 + 1) : (d(count / 2) + d(count / 2 + 1)) / 2;
  s.low = d(order.first);
  s.high = d(count + 1 - order.first);
  s.confidence = std::max(0.0, 1 - 2 * order.second);
  return s;
}

}  // namespace

ShiftEstimate hodges_lehmann(std::span<const double> x, std::span<const double> y, double alpha,
                             RankTestMethod method) {
  check_samples(x, y);
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("hodges_lehmann: alpha not in (0, 1)");
  std::vector<double> xs(x.begin(), x.end()), ys(y.begin(), y.end());
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  const auto d = [&](std::size_t k) { return kth_difference(xs, ys, k); };  // 1-based
  const Ranked r = rank(x, y);
  const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size());
  std::vector<double> cdf;
  if (choose(x.size(), y.size(), r.ties, method) == RankTestMethod::exact)
    cdf = mann_whitney_cdf(static_cast<int>(x.size()), static_cast<int>(y.size()));
  return shift_from(d, xs.size() * ys.size(),
                    interval_order(n1, n2, r.tie_term, alpha, cdf.empty() ? nullptr : &cdf));
}

RankPool::RankPool(std::vector<double> values) : sorted_(std::move(values)) {
  check_samples(sorted_, sorted_);
  std::sort(sorted_.begin(), sorted_.end());
  for (std::size_t i = 0; i < sorted_.size();) {
    std::size_t j = i;
    while (j < sorted_.size() && sorted_[j] == sorted_[i]) ++j;
    const double t = static_cast<double>(j - i);
    tie_term_ += t * t * t - t;
    ties_ = ties_ || j - i > 1;
    i = j;
  }
}

std::vector<double> RankPool::member(std::span<const double> x) const {
  check_samples(x, std::span<const double>(sorted_.data(), 1));  // the pool was checked whole
  std::vector<double> xs(x.begin(), x.end());
  std::sort(xs.begin(), xs.end());
  if (xs.size() >= sorted_.size())
    throw std::invalid_argument("rank pool: the sample is the whole pool, nothing to test against");
  return xs;
}

const std::vector<double>* RankPool::exact_cdf(std::size_t n1, RankTestMethod method) const {
  const std::size_t n2 = sorted_.size() - n1;
  if (choose(n1, n2, ties_, method) != RankTestMethod::exact) return nullptr;
  auto it = cdfs_.find(n1);
  if (it == cdfs_.end())
    it = cdfs_.emplace(n1, mann_whitney_cdf(static_cast<int>(n1), static_cast<int>(n2))).first;
  return &it->second;
}

MannWhitney RankPool::test(std::span<const double> x, RankTestMethod method) const {
  const std::vector<double> xs = member(x);
  const double n1 = static_cast<double>(xs.size());
  const double n2 = static_cast<double>(sorted_.size() - xs.size());
  // U of x against the rest: for each of x's values, the rest's values below it, and half
  // those equal, each count the pool's less x's own.
  MannWhitney out;
  for (double a : xs) {
    const auto below = [a](const std::vector<double>& v) {
      return static_cast<double>(std::lower_bound(v.begin(), v.end(), a) - v.begin());
    };
    const auto equal = [a](const std::vector<double>& v) {
      const auto range = std::equal_range(v.begin(), v.end(), a);
      return static_cast<double>(range.second - range.first);
    };
    out.u += below(sorted_) - below(xs) + (equal(sorted_) - equal(xs)) / 2;
  }
  const double u = std::max(out.u, n1 * n2 - out.u);
  const std::vector<double>* cdf = exact_cdf(xs.size(), method);
  out.method = cdf ? RankTestMethod::exact : RankTestMethod::asymptotic;
  if (cdf) {
    out.p = 2 * (*cdf)[static_cast<std::size_t>(n1 * n2 - std::floor(u))];
  } else {
    const double sigma = u_sigma(n1, n2, tie_term_);
    out.p = sigma > 0 ? std::erfc((u - n1 * n2 / 2 - 0.5) / sigma / std::sqrt(2.0)) : 2;
  }
  out.p = std::clamp(out.p, 0.0, 1.0);
  return out;
}

ShiftEstimate RankPool::shift(std::span<const double> x, double alpha,
                              RankTestMethod method) const {
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("rank pool: alpha not in (0, 1)");
  const std::vector<double> xs = member(x);
  const std::size_t n2 = sorted_.size() - xs.size();
  // The differences a - b (a of x, b of the rest) at most t: for each a, the rest's values at
  // least a - t, counted in the pool less in x, by bisection: O(|x| log |pool|) a count.
  const auto at_most = [&](double t) {
    std::size_t c = 0;
    for (double a : xs) {
      const auto from = [&](const std::vector<double>& v) {
        return static_cast<std::size_t>(
            v.end() -
            std::partition_point(v.begin(), v.end(), [&](double b) { return !(a - b <= t); }));
      };
      c += from(sorted_) - from(xs);
    }
    return c;
  };
  // The k-th smallest (1-based), as kth_difference finds it, from a bracket: the k-th of the
  // union of |x| ascending rows (x_i less the rest, the rest descending) lies between the
  // smallest and the largest of the rows' q-th entries, q = ceil(k / |x|); the rest's q-th
  // largest is within |x| places of the pool's. A bracket of about the spread of x, not of
  // the pool, saves a third of the steps.
  const std::size_t n = sorted_.size(), m = xs.size();
  const auto d = [&](std::size_t k) {
    const std::size_t q = (k + m - 1) / m - 1;  // 0-based
    double low = xs.front() - sorted_[n - 1 - q],
           high = xs.back() - sorted_[n - 1 - std::min(n - 1, q + m)];
    for (double a : xs) {
      low = std::min(low, a - sorted_[n - 1 - q]);
      high = std::max(high, a - sorted_[n - 1 - std::min(n - 1, q + m)]);
    }
    std::int64_t lo = order_of(low), hi = order_of(high);
    while (lo < hi) {
      const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
      const std::int64_t mid = lo + static_cast<std::int64_t>(span / 2);
      if (at_most(from_order(mid)) >= k)
        hi = mid;
      else
        lo = mid + 1;
    }
    return from_order(lo);
  };
  // The order statistics depend on the sizes and alpha alone: once for the pool's members of
  // one size.
  const std::tuple key{xs.size(), alpha, method};
  auto order = orders_.find(key);
  if (order == orders_.end())
    order =
        orders_
            .emplace(key, interval_order(static_cast<double>(xs.size()), static_cast<double>(n2),
                                         tie_term_, alpha, exact_cdf(xs.size(), method)))
            .first;
  return shift_from(d, xs.size() * n2, order->second);
}

}  // namespace ridgeline
