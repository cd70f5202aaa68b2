#pragma once
// The rate a GPU sustains at its power cap, per dtype and input pattern, from the run's
// pattern cases (the gpu-patterns suite: one GEMM on each input pattern with --collect nvml):
// where the board's power limit, not the clock's maximum, sets the pace, the data decides
// how fast a compute-bound kernel runs (cuBLAS bf16 ran at 799 TFLOP/s on zeros and 650 on
// normal inputs at the H100's 700 W cap). Nominal ceilings (datasheet, probe) assume the
// clock holds; this roof is what a case of that dtype on such inputs can expect.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/pattern_effect.hpp"
#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

struct PowerCapRoof {
  std::string dtype, pattern;
  double flop_rate = 0;  // FLOP/s: the median repetition of the fastest such case
  std::optional<double> power_w, flop_per_joule;
  std::string case_name;  // the pattern case that measured it (its pattern left out)
};

// One roof per (dtype, pattern) a GPU pattern case ran at the power cap with a usable rate;
// the fastest case where several did. In the effects' order.
std::vector<PowerCapRoof> power_cap_roofs(const std::vector<PatternEffect>& effects);

// A note (kind power_cap) on each placed GPU case whose dtype and pattern have such a roof
// below its compute roof: the roof, its share of the compute roof, and the case's rate
// against it.
void note_power_caps(std::vector<RooflinePlacement>& placements,
                     const std::vector<PowerCapRoof>& roofs);

}  // namespace ridgeline
