#pragma once
// The AVX-512 traits of the packed micro-kernels (microkernel_body.hpp lists the members):
// 16 f32 or 8 f64 lanes. Included only by the units compiled for AVX-512
// (microkernel_avx512.cpp, microkernel_avx512_bf16.cpp); the anonymous namespace gives each
// unit its own copy.
// GCC 12 reports its own _mm512_undefined_* placeholders (max, min, cvtps, roundscale, slli)
// as "may be used uninitialized" once they are inlined (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace ridgeline::packed {
namespace {

struct F32x16 {
  using T = float;
  using V = __m512;
  static constexpr int kLanes = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const T* p) { return _mm512_load_ps(p); }
  static V loadu(const T* p) { return _mm512_loadu_ps(p); }
  static void storeu(T* p, V v) { _mm512_storeu_ps(p, v); }
  static V broadcast(const T* p) { return _mm512_set1_ps(*p); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  // For the epilogue's activations (ops::activate).
  static V set1(float v) { return _mm512_set1_ps(v); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static V round(V v) {
    return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  static V pow2(V n) {
    const __m512i e = _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
    return _mm512_castsi512_ps(_mm512_slli_epi32(e, 23));
  }
  static V zero_where_less(V v, V x, V bound) {
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, bound, _CMP_NLT_UQ), v);
  }
};

struct F64x8 {
  using T = double;
  using V = __m512d;
  static constexpr int kLanes = 8;
  static V zero() { return _mm512_setzero_pd(); }
  static V load(const T* p) { return _mm512_load_pd(p); }
  static V loadu(const T* p) { return _mm512_loadu_pd(p); }
  static void storeu(T* p, V v) { _mm512_storeu_pd(p, v); }
  static V broadcast(const T* p) { return _mm512_set1_pd(*p); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
};

}  // namespace
}  // namespace ridgeline::packed
