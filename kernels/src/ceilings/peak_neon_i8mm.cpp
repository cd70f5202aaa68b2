// Peak chain for the Advanced SIMD int8 matrix multiply (FEAT_I8MM, HWCAP2_I8MM): SMMLA .4s,
// .16b, .16b, a 2 x 8 int8 matrix times an 8 x 2 one added to a 2 x 2 int32 matrix, 32
// products, 64 OPs an instruction. Built with +i8mm; called only where HWCAP2 has it.
#include <arm_neon.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

double peak_i8_neon_smmla(std::int64_t iterations) {
  const int8x16_t a = vdupq_n_s8(1), b = vdupq_n_s8(1);
  return run_chains<kArmChains, int32x4_t>(
      iterations, [](int i) { return vdupq_n_s32(i); },
      [&](int32x4_t x) { return vmmlaq_s32(x, a, b); },
      [](int32x4_t x) { return double(vgetq_lane_s32(x, 0)); });
}

}  // namespace ridgeline::ceilings
