// The i8 micro-kernel on SMMLA (FEAT_I8MM): signed int8 A and B, i32 C, 8 x 12 tiles of 2 x 2
// blocks (microkernel_mmla_body.hpp), k in groups of 8. No epilogue.
//
// SMMLA multiplies signed by signed bytes (Arm ARM: SMMLA), so neither operand is offset and
// the accumulators start at zero: none of the x86 VNNI kernel's sign correction (vpdpbusd
// takes unsigned bytes), no b_tail. Exact: SMMLA's and every add here wrap, so C is the true
// sum modulo 2^32, the true sum wherever it fits in i32: a product is at most 2^14 in magnitude
// (-128 x -128), so any inputs are exact for k < 2^17.
#include <arm_neon.h>

#include <cstdint>

#include "microkernel.hpp"
#include "microkernel_mmla_body.hpp"

namespace ridgeline::packed {

namespace {

// int8 in, i32 out (microkernel_mmla_body.hpp lists the members).
struct I8Mmla {
  using In = std::int8_t;
  using Out = std::int32_t;
  using VIn = int8x16_t;
  using V = int32x4_t;
  static constexpr int kK = 8;
  static VIn load_in(const In* p) { return vld1q_s8(p); }
  static V mmla(V acc, VIn a, VIn b) { return vmmlaq_s32(acc, a, b); }
  static V zero() { return vdupq_n_s32(0); }
  static V load(const std::int32_t* p) { return vld1q_s32(p); }
  static void store(std::int32_t* p, V v) { vst1q_s32(p, v); }
  static V add(V a, V b) { return vaddq_s32(a, b); }
  static V zip_lo(V a, V b) {
    return vreinterpretq_s32_s64(vzip1q_s64(vreinterpretq_s64_s32(a), vreinterpretq_s64_s32(b)));
  }
  static V zip_hi(V a, V b) {
    return vreinterpretq_s32_s64(vzip2q_s64(vreinterpretq_s64_s32(a), vreinterpretq_s64_s32(b)));
  }
};

}  // namespace

MicroKernel<std::int8_t, std::int32_t> microkernel_i8_smmla() {
  return mmla::micro_kernel<I8Mmla>("gemm_i8_smmla_8x12", nullptr);
}

}  // namespace ridgeline::packed
