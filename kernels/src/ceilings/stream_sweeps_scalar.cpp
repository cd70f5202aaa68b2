// The bandwidth loops at the scalar width (flags in kernels/CMakeLists.txt).
#include "stream_sweeps_body.hpp"

namespace ridgeline::ceilings {
const StreamSweeps stream_sweeps_scalar = kSweeps<16>;  // 16: two adds a cycle; more spill
}  // namespace ridgeline::ceilings
