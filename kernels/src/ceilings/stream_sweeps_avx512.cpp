// The bandwidth loops at the avx512 width (flags in kernels/CMakeLists.txt).
#include "stream_sweeps_body.hpp"

namespace ridgeline::ceilings {
const StreamSweeps stream_sweeps_avx512 = kSweeps<32>;  // four vectors of partial sums
}  // namespace ridgeline::ceilings
