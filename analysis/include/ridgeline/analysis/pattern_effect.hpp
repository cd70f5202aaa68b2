#pragma once
// The effect of the input data on a kernel: the same case (op, backend, dtype, params,
// threads) run on several input patterns, with its rate, power and clock on each.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct PatternPoint {
  std::string pattern;
  double flop_rate = 0;               // FLOP/s, median over the repetitions; 0: none usable
  double vs_first = 0;                // flop_rate / the first pattern's; 0: no usable ratio
  std::optional<double> power_w;      // average power (NVML's GPU, else RAPL's package)
  std::optional<double> sm_clock_hz;  // average SM clock (GPU)
  std::optional<double> flop_per_joule;
  bool throttled = false;
  bool power_capped = false;  // NVML saw the power cap hold the clocks in a repetition
  std::string note;           // readings left out because they are not usable numbers, and why
};

struct PatternEffect {
  std::string case_name;  // the run name with the pattern left out
  Device device = Device::cpu;
  std::string dtype;
  std::vector<PatternPoint> points;  // in run order
};

// Every case that ran on two or more patterns (timed repetitions only). Readings that are
// not usable numbers (rates: finite and positive; power, clock: finite and not negative)
// are left out of the medians.
std::vector<PatternEffect> pattern_effects(const Run& run);

}  // namespace ridgeline
