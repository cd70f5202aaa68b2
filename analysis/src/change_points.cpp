#include "ridgeline/analysis/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline {

namespace {

// Prefix sums give any segment's cost in O(1).
struct SegmentCost {
  std::vector<double> sum{0}, squares{0};
  explicit SegmentCost(std::span<const double> x) {
    for (double v : x) {
      sum.push_back(sum.back() + v);
      squares.push_back(squares.back() + v * v);
    }
  }
  // x[a, b): sum of squared deviations from its mean.
  double operator()(std::size_t a, std::size_t b) const {
    const double n = static_cast<double>(b - a), s = sum[b] - sum[a];
    return std::max(0.0, squares[b] - squares[a] - s * s / n);
  }
  double mean(std::size_t a, std::size_t b) const {
    return (sum[b] - sum[a]) / static_cast<double>(b - a);
  }
};

std::vector<Step> steps_of(const SegmentCost& cost, const std::vector<std::size_t>& starts,
                           std::size_t n) {
  std::vector<Step> out;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t a = i == 0 ? 0 : starts[i - 1], b = starts[i];
    const std::size_t c = i + 1 < starts.size() ? starts[i + 1] : n;
    out.push_back({b, cost.mean(a, b), cost.mean(b, c)});
  }
  return out;
}

}  // namespace

std::vector<std::size_t> pelt_mean_shifts(std::span<const double> x, double penalty,
                                          std::size_t min_length) {
  const std::size_t n = x.size();
  min_length = std::max<std::size_t>(1, min_length);
  if (n < 2 * min_length) return {};
  const SegmentCost cost(x);
  // f[t]: the best cost of x[0, t); last[t]: where its last segment starts.
  std::vector<double> f(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> last(n + 1, 0);
  f[0] = -penalty;
  std::vector<std::size_t> candidates{0};
  for (std::size_t t = min_length; t <= n; ++t) {
    for (std::size_t s : candidates) {
      if (t - s < min_length || !std::isfinite(f[s])) continue;
      const double v = f[s] + cost(s, t) + penalty;
      if (v < f[t]) {
        f[t] = v;
        last[t] = s;
      }
    }
    // Pruning: a start that cannot beat the best even now never will (the cost is additive).
    std::vector<std::size_t> kept;
    for (std::size_t s : candidates)
      if (t - s < min_length || !std::isfinite(f[s]) || f[s] + cost(s, t) <= f[t])
        kept.push_back(s);
    kept.push_back(t);
    candidates = std::move(kept);
  }
  std::vector<std::size_t> starts;
  for (std::size_t t = n; last[t] > 0; t = last[t]) starts.push_back(last[t]);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

std::vector<Step> mean_steps(std::span<const double> x, double min_step) {
  const std::size_t n = x.size();
  if (n < 4) return {};
  std::vector<double> diffs;
  for (std::size_t i = 1; i < n; ++i) diffs.push_back(std::abs(x[i] - x[i - 1]));
  std::nth_element(diffs.begin(), diffs.begin() + static_cast<long>(diffs.size() / 2), diffs.end());
  // The median absolute difference of neighbours, as a robust sigma (1.4826 MAD of
  // differences over sqrt 2); steps move one difference only, so they barely bias it.
  double sigma = 1.4826 * diffs[diffs.size() / 2] / std::sqrt(2.0);
  sigma = std::max(sigma, min_step / 10);  // a noiseless series: any step above min_step
  const double penalty = 2 * sigma * sigma * std::log(static_cast<double>(n));
  const SegmentCost cost(x);
  std::vector<std::size_t> starts = pelt_mean_shifts(x, penalty, kMinRunsPerLevel);
  // Merge the smallest step below min_step until none is left.
  for (;;) {
    const auto steps = steps_of(cost, starts, n);
    auto smallest = std::min_element(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
      return std::abs(a.after - a.before) < std::abs(b.after - b.before);
    });
    if (smallest == steps.end() || std::abs(smallest->after - smallest->before) >= min_step)
      return steps;
    starts.erase(starts.begin() + (smallest - steps.begin()));
  }
}

}  // namespace ridgeline
