// Peak chains for Advanced SIMD bf16 (FEAT_BF16, HWCAP2_BF16). BFDOT .4s, .8h, .8h: four f32
// lanes each adding two bf16 products, 16 FLOPs an instruction. BFMMLA .4s, .8h, .8h: a 2 x 4
// bf16 matrix times a 4 x 2 one added to a 2 x 2 f32 matrix, 16 products, 32 FLOPs (the Arm
// ARM's BFMMLA). Built with +bf16; called only where HWCAP2 has it.
#include <arm_neon.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

namespace {
// 2^-7 in bf16 (0x3C00): products of 2^-14, normal, so no flush-to-zero path is timed.
bfloat16x8_t bf16_operand() {
  return vreinterpretq_bf16_u16(vdupq_n_u16(0x3C00));
}
}  // namespace

double peak_bf16_neon_bfdot(std::int64_t iterations) {
  const bfloat16x8_t a = bf16_operand(), b = bf16_operand();
  return run_chains<kArmChains, float32x4_t>(
      iterations, [](int i) { return vdupq_n_f32(1.0f + static_cast<float>(i)); },
      [&](float32x4_t x) { return vbfdotq_f32(x, a, b); },
      [](float32x4_t x) { return double(vgetq_lane_f32(x, 0)); });
}

double peak_bf16_neon_bfmmla(std::int64_t iterations) {
  const bfloat16x8_t a = bf16_operand(), b = bf16_operand();
  return run_chains<kArmChains, float32x4_t>(
      iterations, [](int i) { return vdupq_n_f32(1.0f + static_cast<float>(i)); },
      [&](float32x4_t x) { return vbfmmlaq_f32(x, a, b); },
      [](float32x4_t x) { return double(vgetq_lane_f32(x, 0)); });
}

}  // namespace ridgeline::ceilings
