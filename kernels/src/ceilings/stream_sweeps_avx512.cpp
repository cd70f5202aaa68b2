// The bandwidth loops at the avx512 width (flags in kernels/CMakeLists.txt).
#include "stream_sweeps_body.hpp"

namespace ridgeline::ceilings {
// Four vectors of partial sums, eight within L1 (stream_sweeps_body.hpp says why).
const StreamSweeps stream_sweeps_avx512 = kSweeps<32, 64>;
}  // namespace ridgeline::ceilings
