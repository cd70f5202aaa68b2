#pragma once
// bf16 <-> f32 for 4 NEON lanes, for the row-wise bf16 body (rowwise_bf16_body.hpp) on
// AArch64. Baseline Advanced SIMD only, so every AArch64 CPU runs it, with or without FEAT_BF16
// (Neoverse N1 has none): widening is a shift (bf16 is the top half of an f32, exact), and
// narrowing rounds to nearest even with integer operations, NaN kept a quiet NaN, bit for bit
// what core/dtype's to_bf16 does, so a kernel and its reference round alike. Included only by
// the NEON units; the anonymous namespace gives each its own copy. Tails move lane by lane:
// nothing past `count` is touched.
#include <arm_neon.h>

#include <cstdint>

#include "bf16_io.hpp"

namespace ridgeline::ops {
namespace {

struct Bf16x4 {
  using V = float32x4_t;
  static V widen(const std::uint16_t* p) { return widened(vld1_u16(p)); }
  // count in [1, 3]; the lanes from count on hold 0.
  static V widen_tail(const std::uint16_t* p, int count) { return load_tail(p, count, 0.0f); }
  static V load_tail(const std::uint16_t* p, int count, float fill) {
    float lanes[4] = {fill, fill, fill, fill};
    for (int i = 0; i < count; ++i) lanes[i] = widened_bf16(p[i]);
    return vld1q_f32(lanes);
  }
  static void narrow(std::uint16_t* p, V v) { vst1_u16(p, narrowed(v)); }
  static void narrow_tail(std::uint16_t* p, int count, V v) {
    std::uint16_t lanes[4];
    vst1_u16(lanes, narrowed(v));
    for (int i = 0; i < count; ++i) p[i] = lanes[i];
  }
  // A plain store, as F32x4::stream (simd_neon.hpp says why).
  static void stream(std::uint16_t* p, V v) { narrow(p, v); }
  static void widen_row(const std::uint16_t* src, float* dst, std::int64_t n) {
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) vst1q_f32(dst + i, widen(src + i));
    for (; i < n; ++i) dst[i] = widened_bf16(src[i]);
  }
  static void narrow_row(const float* src, std::uint16_t* dst, std::int64_t n) {
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) narrow(dst + i, vld1q_f32(src + i));
    for (; i < n; ++i) put(dst + i, src[i]);
  }
  static void put(std::uint16_t* p, float v) { *p = vget_lane_u16(narrowed(vdupq_n_f32(v)), 0); }

 private:
  static V widened(uint16x4_t h) { return vreinterpretq_f32_u32(vshll_n_u16(h, 16)); }
  // bits + 0x7fff + (bit 16), the top half: round to nearest, ties to even; a NaN keeps its
  // top half with the quiet bit set.
  static uint16x4_t narrowed(V v) {
    const uint32x4_t bits = vreinterpretq_u32_f32(v);
    const uint32x4_t odd = vandq_u32(vshrq_n_u32(bits, 16), vdupq_n_u32(1));
    const uint16x4_t rounded =
        vshrn_n_u32(vaddq_u32(bits, vaddq_u32(vdupq_n_u32(0x7fff), odd)), 16);
    const uint16x4_t quiet = vorr_u16(vshrn_n_u32(bits, 16), vdup_n_u16(0x40));
    const uint16x4_t is_nan = vmovn_u32(vmvnq_u32(vceqq_f32(v, v)));
    return vbsl_u16(is_nan, quiet, rounded);
  }
};

}  // namespace
}  // namespace ridgeline::ops
