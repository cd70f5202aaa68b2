#pragma once
// The machine section's memory sweep plot (memory_sweep_svg.cpp).
#include <string>
#include <vector>

#include "ridgeline/analysis/sweep_scene.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::reports {

// Bandwidth against working set from the model's sweeps, its measured levels and hwloc's
// cache sizes, and each of `marks` as a diamond in its group's colour (`colours`); "" when
// the model has no sweep (machine schema 1).
std::string memory_sweep_svg(const MachineModel& machine,
                             const std::vector<BandwidthMark>& marks = {},
                             const BackendColours& colours = {});

}  // namespace ridgeline::reports
