#include "ridgeline/analysis/memory_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ridgeline {

namespace {

// Segment ends (exclusive) of the optimal fit of y by constants: least squares plus
// `penalty` per segment, by dynamic programming over prefix sums (O(n^2); a sweep has
// around a hundred points).
std::vector<std::size_t> segment_ends(const std::vector<double>& y, double penalty) {
  const std::size_t n = y.size();
  std::vector<double> s(n + 1, 0), s2(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    s[i + 1] = s[i] + y[i];
    s2[i + 1] = s2[i] + y[i] * y[i];
  }
  const auto sse = [&](std::size_t a, std::size_t b) {  // of y[a, b)
    const double sum = s[b] - s[a], count = static_cast<double>(b - a);
    return std::max(0.0, (s2[b] - s2[a]) - sum * sum / count);
  };
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> start(n + 1, 0);
  best[0] = 0;
  for (std::size_t b = 1; b <= n; ++b)
    for (std::size_t a = 0; a < b; ++a) {
      const double cost = best[a] + sse(a, b) + penalty;
      if (cost < best[b]) {
        best[b] = cost;
        start[b] = a;
      }
    }
  std::vector<std::size_t> ends;
  for (std::size_t b = n; b > 0; b = start[b]) ends.push_back(b);
  std::reverse(ends.begin(), ends.end());
  return ends;
}

struct LevelRun {
  std::size_t begin, end;  // point indices [begin, end)
  std::vector<double> rates;
};

}  // namespace

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2) return v[mid];
  const double upper = v[mid];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

// 1.4826 for a normal variable, sqrt(2) for the difference of two.
double neighbour_noise(const std::vector<double>& y) {
  std::vector<double> d;
  for (std::size_t i = 1; i < y.size(); ++i) d.push_back(std::fabs(y[i] - y[i - 1]));
  return 1.4826 * median_of(std::move(d)) / std::sqrt(2.0);
}

std::int64_t SweepPlateau::middle_bytes() const {
  return static_cast<std::int64_t>(
      std::llround(std::sqrt(static_cast<double>(first_bytes) * static_cast<double>(last_bytes))));
}

std::vector<SweepPlateau> find_plateaus(std::vector<SweepPoint> sweep,
                                        const PlateauOptions& options) {
  for (const SweepPoint& p : sweep)
    if (!(p.working_set_bytes > 0) || !(p.bytes_per_s > 0) || !std::isfinite(p.bytes_per_s))
      throw std::invalid_argument("a sweep point needs a positive working set and rate");
  std::sort(sweep.begin(), sweep.end(), [](const SweepPoint& a, const SweepPoint& b) {
    return a.working_set_bytes < b.working_set_bytes;
  });
  std::vector<double> y;
  for (const SweepPoint& p : sweep) y.push_back(std::log(p.bytes_per_s));
  if (y.empty()) return {};

  // BIC for a Gaussian mean shift: each segment costs about 2 sigma^2 ln(n) of squared error.
  const double sigma = std::max(options.min_noise, neighbour_noise(y));
  const double n = static_cast<double>(y.size());
  const double penalty = 2.0 * sigma * sigma * std::log(std::max(n, 2.0));

  const auto min_points = static_cast<std::size_t>(std::max(1, options.min_points));
  std::vector<LevelRun> levels;
  std::size_t covered = 0;  // the end of the last run kept
  const auto keep = [&](std::size_t begin, std::size_t end) {
    LevelRun run{begin, end, {}};
    for (std::size_t i = begin; i < end; ++i) run.rates.push_back(sweep[i].bytes_per_s);
    // A run that does not step down from the level before it belongs to that level.
    if (!levels.empty() &&
        median_of(run.rates) >= options.same_level * median_of(levels.back().rates)) {
      LevelRun& last = levels.back();
      last.end = end;
      last.rates.insert(last.rates.end(), run.rates.begin(), run.rates.end());
    } else {
      levels.push_back(std::move(run));
    }
    covered = end;
  };
  std::size_t begin = 0;
  for (std::size_t end : segment_ends(y, penalty)) {
    if (end - begin >= min_points) keep(begin, end);
    begin = end;
  }
  // A sweep ends in its last level: the points after the last run, in segments each too short
  // to be a level, are that level together (a busy host's DRAM swung 29-81 GB/s from point to
  // point in a 2-thread sweep on the Zen 5 VM, the fit cut it into pieces, and L3 was left
  // last, so named DRAM).
  if (y.size() - covered >= min_points) keep(covered, y.size());

  std::vector<SweepPlateau> out;
  for (const LevelRun& r : levels)
    out.push_back({sweep[r.begin].working_set_bytes, sweep[r.end - 1].working_set_bytes,
                   median_of(r.rates), static_cast<int>(r.rates.size())});
  return out;
}

std::int64_t level_capacity_bytes(const SweepPlateau& smaller, const SweepPlateau& larger) {
  return static_cast<std::int64_t>(std::llround(std::sqrt(
      static_cast<double>(smaller.last_bytes) * static_cast<double>(larger.first_bytes))));
}

}  // namespace ridgeline
