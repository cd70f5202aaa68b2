#pragma once
// The effect of the input data on a kernel: the same case (op, backend, dtype, shape,
// layout, threads) run on several input patterns, with its rate, power and clock on each.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct PatternPoint {
  std::string pattern;
  double flop_rate = 0;               // FLOP/s, median over the repetitions
  std::optional<double> power_w;      // average power (NVML's GPU, else RAPL's package)
  std::optional<double> sm_clock_hz;  // average SM clock (GPU)
  std::optional<double> flop_per_joule;
  bool throttled = false;
};

struct PatternEffect {
  std::string case_name;             // the run name with the pattern left out
  std::vector<PatternPoint> points;  // in run order
};

// Every case that ran on two or more patterns (timed repetitions only).
std::vector<PatternEffect> pattern_effects(const Run& run);

}  // namespace ridgeline
