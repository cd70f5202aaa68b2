#pragma once
// A bandwidth-against-working-set sweep's plateaus (a level serving the whole working set)
// and the steps between them, found by change-point detection, never from the sizes the OS
// reports; memory_hierarchy.hpp names the levels from them beside the OS's sizes.
#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline {

// One point of a sweep: all arrays of all threads together, and the rate measured over them.
struct SweepPoint {
  std::int64_t working_set_bytes = 0;
  double bytes_per_s = 0;
};

// A plateau: consecutive points at one bandwidth, so one level serves them all.
struct SweepPlateau {
  std::int64_t first_bytes = 0, last_bytes = 0;  // working sets of its first and last point
  double bytes_per_s = 0;                        // the median of its points
  int points = 0;
  // The geometric middle of its range: where its ceiling is measured, away from both steps.
  std::int64_t middle_bytes() const;
};

struct PlateauOptions {
  int min_points = 3;        // a shorter run of points is a step between plateaus, not a level
  double same_level = 0.85;  // a plateau at >= this fraction of the one before it is the
                             // same level, split by a ramp (loop overhead at the smallest
                             // sizes) or a dip; real levels step down by more
  double min_noise = 0.02;   // relative noise assumed at least, however smooth the sweep
};

// The plateaus of `sweep` (points in any order; sizes and rates must be positive, else
// std::invalid_argument), smallest working set first. Change points come from the optimal
// piecewise-constant fit of log bandwidth against the point index (least squares plus a
// penalty per segment scaled by the noise between neighbouring points: a BIC-like
// criterion); segments shorter than min_points are steps; neighbours that do not step down
// are merged; the points after the last plateau, min_points or more, are the last plateau
// however the fit cut them (the sweep ends in its last level).
std::vector<SweepPlateau> find_plateaus(std::vector<SweepPoint> sweep,
                                        const PlateauOptions& options = {});

// The working set at which the level of `smaller` stops serving: the geometric middle of the
// step between its last point and the first point of the next plateau, `larger`.
std::int64_t level_capacity_bytes(const SweepPlateau& smaller, const SweepPlateau& larger);

// The median of `values` (0 for none).
double median_of(std::vector<double> values);

// The spread of log bandwidth between neighbouring points of a sweep, robustly: the median
// absolute difference of neighbours scaled to a standard deviation. The noise of a sweep
// measured once (the steps between levels are a few differences among many).
double neighbour_noise(const std::vector<double>& log_rates);

}  // namespace ridgeline
