// Peak chain for Advanced SIMD fp16 arithmetic (FEAT_FP16, HWCAP_ASIMDHP): FMLA .8h, eight
// lanes, 16 FLOPs an instruction. Built with +fp16; called only where HWCAP has it. The
// product (1e-4) is normal in fp16 and under half an ulp of the accumulators (1 to 20), so
// they never grow towards fp16's 65504.
#include <arm_neon.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

double peak_f16_neon_fma(std::int64_t iterations) {
  const float16x8_t m = vdupq_n_f16(0.01f), a = vdupq_n_f16(0.01f);
  return run_chains<kArmChains, float16x8_t>(
      iterations, [](int i) { return vdupq_n_f16(1.0f + static_cast<float>(i)); },
      [&](float16x8_t x) { return vfmaq_f16(x, m, a); },
      [](float16x8_t x) { return static_cast<double>(vgetq_lane_f16(x, 0)); });
}

}  // namespace ridgeline::ceilings
