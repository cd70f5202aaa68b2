#pragma once
// The hierarchy detector's view of one kernel's sweeps (memory_hierarchy.cpp): the median of
// its passes, the noise measured from their spread, its plateaus without ramps and the steps
// between them, for the median and for each pass.
#include <cstdint>
#include <string>
#include <vector>

#include "ridgeline/analysis/memory_hierarchy.hpp"

namespace ridgeline::hierarchy {

std::int64_t geometric_middle(std::int64_t a, std::int64_t b);

// A step down between two neighbouring plateaus of one sweep.
struct Step {
  std::int64_t lo = 0, hi = 0;  // the last working set above it, the first below it
  double drop = 0;              // log(rate above / rate below)
  int upper_points = 0, lower_points = 0;
  // How far each plateau's rate slopes across its own range (|log change| of a least-squares
  // line through its points against log size): a flat plateau is a level, a slope is not.
  double upper_slope = 0, lower_slope = 0;
  bool near(std::int64_t lo2, std::int64_t hi2, double factor) const {
    return static_cast<double>(lo2) <= static_cast<double>(hi) * factor &&
           static_cast<double>(hi2) >= static_cast<double>(lo) / factor;
  }
};

// One kernel's sweeps prepared: the median of its passes at each point, the noise measured
// from their spread, and the plateaus of the median and of each pass.
struct Curve {
  std::string kernel;
  std::vector<SweepPoint> median;
  double sigma = 0;
  bool from_passes = false;
  std::vector<SweepPlateau> plateaus;
  std::vector<std::vector<SweepPlateau>> pass_plateaus;
  std::vector<Step> steps;                    // of the median
  std::vector<std::vector<Step>> pass_steps;  // of each pass
};

// One kernel's passes prepared (sorted by working set); throws std::invalid_argument for no
// points or passes of different working sets.
Curve prepare(const KernelSweeps& sweeps, const HierarchyOptions& options);

// Whether `s` drops by more than min_drop and than z standard errors of the difference of its
// two plateaus' medians, at per-point noise `sigma`.
bool significant(const Step& s, double sigma, const HierarchyOptions& options);

// The largest significant step of `steps` within `factor` of [lo, hi]; null where none.
const Step* step_near(const std::vector<Step>& steps, double sigma, std::int64_t lo,
                      std::int64_t hi, double factor, const HierarchyOptions& options);

}  // namespace ridgeline::hierarchy
