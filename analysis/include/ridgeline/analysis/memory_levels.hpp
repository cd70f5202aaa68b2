#pragma once
// The memory hierarchy as a bandwidth-against-working-set sweep shows it: plateaus (a level
// serving the whole working set) and the steps between them, found by change-point
// detection, never from the sizes the OS reports (in a VM those can be the host's).
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

// A plateau with its level's name: the first `caches` plateaus that have another after them
// are "L1", "L2", ... (caches: the cache levels the OS lists; its count is right even where
// its sizes are not), the last plateau is "DRAM" (a sweep runs until DRAM is reached), and
// plateaus between the last cache and DRAM are "L<caches>-DRAM". Where there are more
// plateaus than that, a short one (at most 4 points) at a rate between its neighbours' is
// the ramp from one level to the next, "L<k>-L<k+1>", shortest first, until the caches are
// `caches` (a wider one is a level). capacity_bytes is level_capacity_bytes with the next
// plateau, 0 for DRAM.
struct NamedPlateau {
  std::string name;
  SweepPlateau plateau;
  std::int64_t capacity_bytes = 0;
};
std::vector<NamedPlateau> name_plateaus(const std::vector<SweepPlateau>& plateaus, int caches);

// The median of `values` (0 for none).
double median_of(std::vector<double> values);

// The spread of log bandwidth between neighbouring points of a sweep, robustly: the median
// absolute difference of neighbours scaled to a standard deviation. The noise of a sweep
// measured once (the steps between levels are a few differences among many).
double neighbour_noise(const std::vector<double>& log_rates);

// Whether a measured and a reported size differ by more than `factor` either way (a reported
// size of 0, none, never disagrees).
bool sizes_disagree(std::int64_t measured, std::int64_t reported, double factor = 2.0);

}  // namespace ridgeline
