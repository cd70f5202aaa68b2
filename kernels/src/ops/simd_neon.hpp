#pragma once
// The AArch64 Advanced SIMD (NEON) traits of the SIMD bodies (rowwise_simd.hpp lists the
// members) and of the packed GEMM's micro-kernels (microkernel_body.hpp): 4 f32 lanes, and 2
// f64 lanes for the f64 micro-kernel. NEON with FMA is architectural on AArch64: no flags.
// Included only by the NEON units (rowwise_neon.cpp, attention_neon.cpp,
// cpu/microkernel_neon.cpp); the anonymous namespace gives each unit its own copy. NEON has
// no masked loads: tails move lane by lane, so nothing past `count` is touched.
#include <arm_neon.h>

namespace ridgeline::ops {
namespace {

struct F32x4 {
  using T = float;
  using V = float32x4_t;
  static constexpr int kLanes = 4;
  static V set1(float v) { return vdupq_n_f32(v); }
  static V load(const float* p) { return vld1q_f32(p); }
  static V load_aligned(const float* p) { return vld1q_f32(p); }
  static void store(float* p, V v) { vst1q_f32(p, v); }
  // count in [1, 3]; lanes from count on hold fill.
  static V load_tail(const float* p, int count, float fill) {
    V v = vld1q_lane_f32(p, vdupq_n_f32(fill), 0);
    if (count > 1) v = vld1q_lane_f32(p + 1, v, 1);
    if (count > 2) v = vld1q_lane_f32(p + 2, v, 2);
    return v;
  }
  static void store_tail(float* p, int count, V v) {
    vst1q_lane_f32(p, v, 0);
    if (count > 1) vst1q_lane_f32(p + 1, v, 1);
    if (count > 2) vst1q_lane_f32(p + 2, v, 2);
  }
  // A plain store, and no fence: STNP is only a hint, and the Neoverse cores already see a
  // run of whole-line writes and skip the read for ownership (write streaming mode), which is
  // what x86's non-temporal stores buy. Plain stores need no fence before the region's end.
  static void stream(float* p, V v) { vst1q_f32(p, v); }
  static void fence() {}
  static V add(V a, V b) { return vaddq_f32(a, b); }
  static V sub(V a, V b) { return vsubq_f32(a, b); }
  static V mul(V a, V b) { return vmulq_f32(a, b); }
  static V div(V a, V b) { return vdivq_f32(a, b); }
  // x86's maxps / minps, which the bodies were written against: b where either is NaN (exp's
  // clamp turns NaN into its bound, relu(NaN) stays NaN). FMAX propagates NaN and FMAXNM drops
  // it, so neither is both: a compare and a select.
  static V max(V a, V b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
  static V min(V a, V b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
  static V fma(V a, V b, V c) { return vfmaq_f32(c, a, b); }
  static V round(V v) { return vrndnq_f32(v); }
  static V pow2(V n) {
    const int32x4_t e = vaddq_s32(vcvtnq_s32_f32(n), vdupq_n_s32(127));
    return vreinterpretq_f32_s32(vshlq_n_s32(e, 23));
  }
  // 2^n from t = n + 127 + 1.5 * 2^23 (exp_approx): t's low bits shifted into the exponent.
  static V pow2_of_biased(V t) {
    return vreinterpretq_f32_s32(vshlq_n_s32(vreinterpretq_s32_f32(t), 23));
  }
  static V zero_where_less(V v, V x, V bound) {
    return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(v), vcltq_f32(x, bound)));
  }
  static float reduce_add(V v) { return vaddvq_f32(v); }
  static float reduce_max(V v) { return vmaxvq_f32(v); }
  // a > b ? fill : v, per lane; whether any lane has a > b.
  static V fill_where_greater(V v, V a, V b, float fill) {
    return vbslq_f32(vcgtq_f32(a, b), vdupq_n_f32(fill), v);
  }
  static bool any_greater(V a, V b) { return vmaxvq_u32(vcgtq_f32(a, b)) != 0; }
};

// The f64 micro-kernel's members only.
struct F64x2 {
  using T = double;
  using V = float64x2_t;
  static constexpr int kLanes = 2;
  static V set1(double v) { return vdupq_n_f64(v); }
  static V load(const double* p) { return vld1q_f64(p); }
  static V load_aligned(const double* p) { return vld1q_f64(p); }
  static void store(double* p, V v) { vst1q_f64(p, v); }
  static V add(V a, V b) { return vaddq_f64(a, b); }
  static V fma(V a, V b, V c) { return vfmaq_f64(c, a, b); }
};

}  // namespace
}  // namespace ridgeline::ops
