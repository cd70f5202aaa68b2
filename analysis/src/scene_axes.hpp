#pragma once
#include <cmath>
#include <utility>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"

namespace ridgeline::detail {

// Integer decades [lo, hi] holding as many of `logs` (log10 values) as an axis of at most 12
// decades (plus `below` and `above` margins) can; the fallback where there are none.
std::pair<int, int> decades(std::vector<double> logs, double below, double above, int fallback_lo,
                            int fallback_hi);

// The axis from 10^lo to 10^hi between two pixels: a tick at each whole decade, and at 2 and
// 5 times each where fewer than three decades are shown; labels in `shown_per_unit` units.
SceneAxis axis(double lo, double hi, double from_px, double to_px, double shown_per_unit);

// A zoom window kept inside double's normal range and at least a tenth of a decade wide.
std::pair<double, double> window_range(double lo, double hi);

// Pixels of the plot for log10 coordinates on the scene's axes.
class Mapper {
 public:
  Mapper(const SceneCanvas& c, const SceneAxis& x, const SceneAxis& y)
      : c_(c),
        x0_(std::log10(x.lo)),
        x1_(std::log10(x.hi)),
        y0_(std::log10(y.lo)),
        y1_(std::log10(y.hi)) {}
  // Pixels of log10 coordinates.
  double px(double lx) const {
    return c_.plot_left() + (lx - x0_) / (x1_ - x0_) * (c_.plot_right() - c_.plot_left());
  }
  double py(double ly) const {
    return c_.plot_bottom() - (ly - y0_) / (y1_ - y0_) * (c_.plot_bottom() - c_.plot_top());
  }
  bool in_x(double lx) const { return lx >= x0_ - 1e-9 && lx <= x1_ + 1e-9; }
  bool in_y(double ly) const { return ly >= y0_ - 1e-9 && ly <= y1_ + 1e-9; }
  double x0() const { return x0_; }
  double x1() const { return x1_; }
  double y0() const { return y0_; }
  double y1() const { return y1_; }

 private:
  const SceneCanvas& c_;
  double x0_, x1_, y0_, y1_;
};

}  // namespace ridgeline::detail
