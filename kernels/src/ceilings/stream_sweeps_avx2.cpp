// The bandwidth loops at the avx2 width (flags in kernels/CMakeLists.txt).
#include "stream_sweeps_body.hpp"

namespace ridgeline::ceilings {
const StreamSweeps stream_sweeps_avx2 = kSweeps<16>;  // four vectors of partial sums
}  // namespace ridgeline::ceilings
