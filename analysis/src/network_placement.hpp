#pragma once
// A collective case's network bytes on the roofline (docs/roofline.md, "Network bytes").
#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

// The work model's network bytes (what each rank sends), where it has them, at the level of
// the scope the case's kernel says it ran in (intra-node where it names none), with a note:
// under that scope's roof, or how to measure the roof where `machine` has none.
void place_network_bytes(RooflinePlacement& p, const CaseDetails& d, const MachineModel* machine);

}  // namespace ridgeline
