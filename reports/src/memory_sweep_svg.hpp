#pragma once
// The machine section's memory sweep plot (memory_sweep_svg.cpp).
#include <string>

#include "ridgeline/core/machine_model.hpp"

namespace ridgeline::reports {

// Bandwidth against working set from the model's sweeps, its measured levels and hwloc's
// cache sizes; "" when the model has no sweep (machine schema 1).
std::string memory_sweep_svg(const MachineModel& machine);

}  // namespace ridgeline::reports
