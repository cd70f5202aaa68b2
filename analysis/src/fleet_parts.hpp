#pragma once
// The parts of analyse_fleet (fleet.cpp) that are jobs of their own: the members' ceilings
// against the fleet's median (fleet_ceilings.cpp) and each node's summary line
// (fleet_summary.cpp).
#include <vector>

#include "ridgeline/analysis/fleet.hpp"

namespace ridgeline::detail {

// Every ceiling any member measured, its median over the members, and each node's ratio to
// it (0: not measured there), the ceilings out by more than the settings' margin named.
void compare_ceilings(const std::vector<FleetMember>& members, Fleet& fleet);

// The node's summary: cases failed here, slower and faster ones grouped by bound, ceilings
// out, or "in family".
void summarise(const Fleet& fleet, FleetNode& node);

}  // namespace ridgeline::detail
