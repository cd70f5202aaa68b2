#pragma once
// The SVE traits of the SIMD bodies (rowwise_simd.hpp lists the members) at a fixed 256-bit
// vector length, 8 f32 lanes: Neoverse V1's SVE, twice NEON's width. The bodies keep arrays
// of vectors, which SVE's sizeless types cannot be, so these are the fixed-length types of
// -msve-vector-bits=256 (arm_sve_vector_bits): the units built with it (rowwise_sve256.cpp,
// attention_sve256.cpp) run only where this process's vector length is 256 bits, which
// rowwise_ops.cpp checks. Tails are predicated (whilelt): nothing past `count` is touched.
// Included only by those units; the anonymous namespace gives each its own copy.
#include <arm_sve.h>

#if !defined(__ARM_FEATURE_SVE_BITS) || __ARM_FEATURE_SVE_BITS != 256
#error "simd_sve256.hpp needs -msve-vector-bits=256"
#endif

namespace ridgeline::ops {
namespace {

using SveF32x8 = svfloat32_t __attribute__((arm_sve_vector_bits(256)));

struct F32x8Sve {
  using T = float;
  using V = SveF32x8;
  static constexpr int kLanes = 8;
  static svbool_t all() { return svptrue_b32(); }
  static V set1(float v) { return svdup_n_f32(v); }
  static V load(const float* p) { return svld1_f32(all(), p); }
  static V load_aligned(const float* p) { return load(p); }
  static void store(float* p, V v) { svst1_f32(all(), p, v); }
  // count in [1, 7]; lanes from count on hold fill.
  static V load_tail(const float* p, int count, float fill) {
    const svbool_t in = svwhilelt_b32(0, count);
    return svsel_f32(in, svld1_f32(in, p), svdup_n_f32(fill));
  }
  static void store_tail(float* p, int count, V v) { svst1_f32(svwhilelt_b32(0, count), p, v); }
  // A plain store and no fence, as F32x4's (simd_neon.hpp says why).
  static void stream(float* p, V v) { store(p, v); }
  static void fence() {}
  static V add(V a, V b) { return svadd_f32_x(all(), a, b); }
  static V sub(V a, V b) { return svsub_f32_x(all(), a, b); }
  static V mul(V a, V b) { return svmul_f32_x(all(), a, b); }
  static V div(V a, V b) { return svdiv_f32_x(all(), a, b); }
  // x86's maxps / minps, as F32x4's: b where either is NaN.
  static V max(V a, V b) { return svsel_f32(svcmpgt_f32(all(), a, b), a, b); }
  static V min(V a, V b) { return svsel_f32(svcmplt_f32(all(), a, b), a, b); }
  static V fma(V a, V b, V c) { return svmla_f32_x(all(), c, a, b); }
  static V round(V v) { return svrintn_f32_x(all(), v); }
  // SVE's FCVTZS truncates: n is integral, so rounding first changes nothing but -0.
  static V pow2(V n) {
    const svint32_t e = svadd_n_s32_x(all(), svcvt_s32_f32_x(all(), round(n)), 127);
    return svreinterpret_f32_s32(svlsl_n_s32_x(all(), e, 23));
  }
  // 2^n from t = n + 127 + 1.5 * 2^23 (exp_approx): t's low bits shifted into the exponent.
  static V pow2_of_biased(V t) {
    return svreinterpret_f32_s32(svlsl_n_s32_x(all(), svreinterpret_s32_f32(t), 23));
  }
  static V zero_where_less(V v, V x, V bound) {
    return svsel_f32(svcmplt_f32(all(), x, bound), svdup_n_f32(0.0f), v);
  }
  static float reduce_add(V v) { return svaddv_f32(all(), v); }
  static float reduce_max(V v) { return svmaxv_f32(all(), v); }
  // a > b ? fill : v, per lane; whether any lane has a > b.
  static V fill_where_greater(V v, V a, V b, float fill) {
    return svsel_f32(svcmpgt_f32(all(), a, b), svdup_n_f32(fill), v);
  }
  static bool any_greater(V a, V b) { return svptest_any(all(), svcmpgt_f32(all(), a, b)); }
};

}  // namespace
}  // namespace ridgeline::ops
