// The bandwidth loops at the neon width (flags in kernels/CMakeLists.txt): the baseline
// Armv8-A vectoriser, 128-bit Advanced SIMD.
#include "stream_sweeps_body.hpp"

namespace ridgeline::ceilings {
// Sixteen 128-bit vectors of partial sums (256 bytes ahead, as the x86 widths keep), within
// L1 too: three loads a cycle (Neoverse V1 and V2) against a two-cycle FADD need six in
// flight, and 32 vectors would be every register, spilled.
const StreamSweeps stream_sweeps_neon = kSweeps<32>;
}  // namespace ridgeline::ceilings
