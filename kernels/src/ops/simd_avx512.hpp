#pragma once
// The AVX-512 traits of the SIMD bodies (rowwise_simd.hpp lists the members) and of the packed
// GEMM's micro-kernels (microkernel_body.hpp) and panel packing: 16 f32 lanes, and 8 f64 lanes
// for the f64 micro-kernel and packing. Included only by the units compiled with
// -mavx512f/dq/bw/vl (rowwise_avx512.cpp, attention_avx512.cpp, cpu/microkernel_avx512*.cpp,
// cpu/panel_packing_avx512.cpp); the anonymous namespace gives each unit its own copy. Tails
// use masks.
// GCC 12 reports its own _mm512_undefined_* placeholders (max, min, cvtps, roundscale, slli)
// as "may be used uninitialized" once they are inlined (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace ridgeline::ops {
namespace {

struct F32x16 {
  using T = float;
  using V = __m512;
  static constexpr int kLanes = 16;
  static __mmask16 mask(int count) { return static_cast<__mmask16>((1u << count) - 1u); }
  static V set1(float v) { return _mm512_set1_ps(v); }
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static V load_aligned(const float* p) { return _mm512_load_ps(p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static V load_tail(const float* p, int count, float fill) {
    return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), mask(count), p);
  }
  static void store_tail(float* p, int count, V v) { _mm512_mask_storeu_ps(p, mask(count), v); }
  // A non-temporal store (p aligned to the vector), and the fence that orders them.
  static void stream(float* p, V v) { _mm512_stream_ps(p, v); }
  static void fence() { _mm_sfence(); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V round(V v) {
    return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  static V pow2(V n) {
    const __m512i e = _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
    return _mm512_castsi512_ps(_mm512_slli_epi32(e, 23));
  }
  static V scale_pow2(V p, V n) { return _mm512_scalef_ps(p, n); }
  static V zero_where_less(V v, V x, V bound) {
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, bound, _CMP_NLT_UQ), v);
  }
  static float reduce_add(V v) { return _mm512_reduce_add_ps(v); }
  static float reduce_max(V v) { return _mm512_reduce_max_ps(v); }
  // a > b ? fill : v, per lane; whether any lane has a > b.
  static V fill_where_greater(V v, V a, V b, float fill) {
    return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ), _mm512_set1_ps(fill));
  }
  static bool any_greater(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ) != 0; }
};

// The f64 micro-kernel's and panel packing's members only.
struct F64x8 {
  using T = double;
  using V = __m512d;
  static constexpr int kLanes = 8;
  static __mmask8 mask(int count) { return static_cast<__mmask8>((1u << count) - 1u); }
  static V set1(double v) { return _mm512_set1_pd(v); }
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static V load_aligned(const double* p) { return _mm512_load_pd(p); }
  static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
  static V load_tail(const double* p, int count, double fill) {
    return _mm512_mask_loadu_pd(_mm512_set1_pd(fill), mask(count), p);
  }
  static void store_tail(double* p, int count, V v) { _mm512_mask_storeu_pd(p, mask(count), v); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
};

}  // namespace
}  // namespace ridgeline::ops
