// The bf16 micro-kernel on BFMMLA (FEAT_BF16): bf16 A and B, f32 C, 8 x 12 tiles of 2 x 2
// blocks (microkernel_mmla_body.hpp), k in groups of 4; with the gemm_bias_act epilogue (a bf16
// bias, widened as it is loaded, as the x86 bf16 kernel takes it), and that epilogue's passes
// for the unfused kernel (plain NEON, the same widening).
//
// BFMMLA's sums are not IEEE f32 FMAs: without FEAT_EBF16 (or with FPCR.EBF clear) each pair of
// products is added and then accumulated with round-to-odd, denormals flushed to zero and FPCR's
// rounding mode ignored (Arm ARM: BFMMLA, BFDotAdd). Products of bf16 are exact in f32, so
// each step is off by at most an ulp of the running sum: the same order of error as the x86
// kernel's vdpbf16ps (which also flushes), not the same bits.
#include <arm_neon.h>

#include <cstdint>

#include "../ops/simd_neon.hpp"
#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "microkernel_mmla_body.hpp"

namespace ridgeline::packed {

namespace {

// bf16 bits in, f32 out (microkernel_mmla_body.hpp lists the members).
struct Bf16Mmla {
  using In = std::uint16_t;
  using Out = float;
  using VIn = bfloat16x8_t;
  using V = float32x4_t;
  using Act = ops::F32x4;
  static constexpr int kK = 4;
  static VIn load_in(const In* p) { return vreinterpretq_bf16_u16(vld1q_u16(p)); }
  static V mmla(V acc, VIn a, VIn b) { return vbfmmlaq_f32(acc, a, b); }
  static V zero() { return vdupq_n_f32(0.0f); }
  static V load(const float* p) { return vld1q_f32(p); }
  static void store(float* p, V v) { vst1q_f32(p, v); }
  static V add(V a, V b) { return vaddq_f32(a, b); }
  static V zip_lo(V a, V b) {
    return vreinterpretq_f32_f64(vzip1q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
  }
  static V zip_hi(V a, V b) {
    return vreinterpretq_f32_f64(vzip2q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
  }
  // A bf16 is the top half of an f32's bits.
  static V load_bias(const In* p) { return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16)); }
};

// The unfused passes' traits (microkernel_body.hpp): f32 C, a bf16 bias widened as it is read.
struct Bf16Bias : ops::F32x4 {
  using In = std::uint16_t;
  static V load_bias(const In* p) { return Bf16Mmla::load_bias(p); }
};

}  // namespace

MicroKernel<std::uint16_t, float> microkernel_bf16_bfmmla() {
  return mmla::micro_kernel<Bf16Mmla>("gemm_bf16_bfmmla_8x12", &mmla::kernel_epilogue<Bf16Mmla>);
}
EpiloguePasses<std::uint16_t> epilogue_passes_bf16_neon() {
  return {&add_bias_rows<Bf16Bias>, &activate_pass<Bf16Bias>};
}

}  // namespace ridgeline::packed
