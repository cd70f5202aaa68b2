// The bandwidth loops at the avx2 width (flags in kernels/CMakeLists.txt).
#include "stream_sweeps_body.hpp"

namespace ridgeline::ceilings {
// Eight vectors of partial sums: two 256-bit loads a cycle against an add latency of three
// cycles need six in flight. With four, the L1 read was add-bound: 156 GB/s on the Zen 4 VM
// (family 19h model 11h) against likwid-bench load_avx's 212 (0.74x), 0.85-0.89x on the
// Zen 3 VM; with eight 222.6 GB/s, and L2, L3 and DRAM unchanged (117, 99.8, 26.3 GB/s).
const StreamSweeps stream_sweeps_avx2 = kSweeps<32>;
}  // namespace ridgeline::ceilings
