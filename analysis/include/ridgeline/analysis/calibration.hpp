#pragma once
// `compare --calibrate`: per-case thresholds from repeated runs of the same code, and the
// thresholds file they are kept in (core/thresholds.hpp). docs/compare.md.
#include <vector>

#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/core/thresholds.hpp"

namespace ridgeline {

// Repeated runs of the same code (an A/A test): every pair of runs compared, each case's
// noise floor (the farthest any pair's interval reached from 1), the threshold that keeps
// it quiet, and how often the pairs raised a false alarm at the given threshold and at the
// calibrated ones (the latter on the same runs it was calibrated on).
struct CaseCalibration {
  CaseKey key;
  std::string name;
  int runs = 0;            // runs that have the case timed
  double noise_floor = 0;  // max over pairs of max(high - 1, 1 - low)
  double threshold = 0;    // max(kCalibrationMargin x noise floor, kCalibrationFloor)
  int false_alarms = 0;    // pairs with a regression or improvement at the given threshold
  int false_alarms_calibrated = 0;
};
inline constexpr double kCalibrationMargin = 1.25;
inline constexpr double kCalibrationFloor = 0.01;
struct Calibration {
  std::vector<CaseCalibration> cases;
  int pairs = 0;
  int comparisons = 0;  // case x pair comparisons with a ratio
  int false_alarms = 0, false_alarms_calibrated = 0;
};
// At least two runs.
Calibration calibrate(const std::vector<RunCases>& runs, const ComparisonSettings& settings);

// The file for a calibration; `fallback` for cases it does not list.
Thresholds thresholds_of(const Calibration& calibration, double fallback);
// The settings' threshold and per-case thresholds from a file.
void apply_thresholds(const Thresholds& thresholds, ComparisonSettings& settings);

}  // namespace ridgeline
