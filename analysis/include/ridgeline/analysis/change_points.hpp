#pragma once
// Steps in a series (a case's time per call over a history of runs): PELT (Killick,
// Fearnhead and Eckley 2012) for changes in the mean under squared error, then steps smaller
// than a minimum merged away. docs/compare.md.
#include <span>
#include <vector>

namespace ridgeline {

// The optimal segmentation of x under cost = sum of squared deviations from each segment's
// mean + `penalty` per segment, every segment at least `min_length` long: the indices where
// a new segment starts (never 0), ascending.
std::vector<std::size_t> pelt_mean_shifts(std::span<const double> x, double penalty,
                                          std::size_t min_length = 1);

// A level must hold for this many runs to be one: a single run apart is the verdict's
// business (compare against the last runs), not a step in the history.
inline constexpr std::size_t kMinRunsPerLevel = 2;

struct Step {
  std::size_t at = 0;            // the first index of the new level
  double before = 0, after = 0;  // the segments' means on either side
};

// Steps in the mean of x (logarithms of times: a step of log(1.1) is 10% slower) with the
// penalty from the series' own noise (BIC: 2 sigma^2 ln n, sigma from the median absolute
// first difference), each at least `min_step` in size: a smaller one is merged with its
// neighbour and the rest re-fitted. Fewer than 4 values: none.
std::vector<Step> mean_steps(std::span<const double> x, double min_step);

}  // namespace ridgeline
