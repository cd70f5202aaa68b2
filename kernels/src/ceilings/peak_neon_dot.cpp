// Peak chain for the Advanced SIMD int8 dot product (FEAT_DotProd, HWCAP_ASIMDDP): SDOT
// .4s, .16b, .16b, four lanes each adding four int8 products, 32 OPs an instruction. Built
// with +dotprod; called only where HWCAP has it. The int32 accumulators wrap in long runs
// (as VNNI's do on x86), which costs nothing.
#include <arm_neon.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

double peak_i8_neon_sdot(std::int64_t iterations) {
  const int8x16_t a = vdupq_n_s8(1), b = vdupq_n_s8(1);
  return run_chains<kArmChains, int32x4_t>(
      iterations, [](int i) { return vdupq_n_s32(i); },
      [&](int32x4_t x) { return vdotq_s32(x, a, b); },
      [](int32x4_t x) { return double(vgetq_lane_s32(x, 0)); });
}

}  // namespace ridgeline::ceilings
