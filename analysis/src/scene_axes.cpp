// The roofline scene's axes: which decades to show, their ticks, a zoom window's bounds.
#include "scene_axes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ridgeline::detail {

namespace {
constexpr int kMaxDecades = 12;  // an axis spans at most this many decades of data
}  // namespace

// Integer decades [lo, hi] holding as many of `logs` as an axis of at most kMaxDecades
// (plus margins) can: the window with the most values wins, the lowest on a tie.
std::pair<int, int> decades(std::vector<double> logs, double below, double above, int fallback_lo,
                            int fallback_hi) {
  if (logs.empty()) return {fallback_lo, fallback_hi};
  std::sort(logs.begin(), logs.end());
  std::size_t best_i = 0, best_j = 0, j = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    j = std::max(j, i);
    while (j + 1 < logs.size() && logs[j + 1] <= logs[i] + kMaxDecades) ++j;
    if (j - i > best_j - best_i) {
      best_i = i;
      best_j = j;
    }
  }
  // Double's normal range is 1e-307 to 1e308: the axis stays inside it.
  int lo = static_cast<int>(std::floor(logs[best_i] - below));
  int hi = static_cast<int>(std::ceil(logs[best_j] + above));
  lo = std::clamp(lo, -307, 306);
  hi = std::clamp(hi, lo + 2, 308);
  lo = std::min(lo, hi - 2);
  return {lo, hi};
}

// The axis from 10^lo to 10^hi: a tick at each whole decade, and at 2 and 5 times each
// where fewer than three decades are shown (a zoomed window).
SceneAxis axis(double lo, double hi, double from_px, double to_px, double shown_per_unit) {
  SceneAxis a;
  a.lo = std::pow(10.0, lo);
  a.hi = std::pow(10.0, hi);
  const bool fine = hi - lo < 3;
  for (int d = static_cast<int>(std::floor(lo)); d <= static_cast<int>(std::ceil(hi)); ++d)
    for (double mantissa : {1.0, 2.0, 5.0}) {
      if (mantissa != 1 && !fine) continue;
      const double at = d + std::log10(mantissa);
      if (at < lo - 1e-9 || at > hi + 1e-9) continue;
      a.ticks.push_back({std::pow(10.0, at), from_px + (to_px - from_px) * (at - lo) / (hi - lo),
                         fmt::format("{:g}", std::pow(10.0, at + std::log10(shown_per_unit)))});
    }
  return a;
}

// A window kept inside double's normal range and at least a tenth of a decade wide.
std::pair<double, double> window_range(double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};
  lo = std::clamp(lo, -307.0, 306.0);
  hi = std::clamp(hi, lo + 0.1, 308.0);
  return {std::min(lo, hi - 0.1), hi};
}

}  // namespace ridgeline::detail
