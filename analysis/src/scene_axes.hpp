#pragma once
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

}  // namespace ridgeline::detail
