#pragma once
// The AVX2 + FMA traits of the SIMD bodies (rowwise_simd.hpp lists the members) and of the
// packed GEMM's micro-kernels (microkernel_body.hpp): 8 f32 lanes, and 4 f64 lanes for the f64
// micro-kernel. Included only by the units compiled with -mavx2 -mfma (rowwise_avx2.cpp,
// attention_avx2.cpp, cpu/microkernel_avx2.cpp); the anonymous namespace gives each unit its
// own copy. Tails use vmaskmov.
#include <immintrin.h>

namespace ridgeline::ops {
namespace {

struct F32x8 {
  using T = float;
  using V = __m256;
  static constexpr int kLanes = 8;
  static __m256i mask(int count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V set1(float v) { return _mm256_set1_ps(v); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static V load_aligned(const float* p) { return _mm256_load_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V load_tail(const float* p, int count, float fill) {
    const __m256i m = mask(count);
    return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
  }
  static void store_tail(float* p, int count, V v) { _mm256_maskstore_ps(p, mask(count), v); }
  // A non-temporal store (p aligned to the vector), and the fence that orders them.
  static void stream(float* p, V v) { _mm256_stream_ps(p, v); }
  static void fence() { _mm_sfence(); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V round(V v) { return _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static V pow2(V n) {
    const __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
  }
  // 2^n from t = n + 127 + 1.5 * 2^23 (exp_approx): t's low bits shifted into the exponent.
  static V pow2_of_biased(V t) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
  }
  static V zero_where_less(V v, V x, V bound) {
    return _mm256_andnot_ps(_mm256_cmp_ps(x, bound, _CMP_LT_OQ), v);
  }
  static float reduce_add(V v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
  }
  static float reduce_max(V v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
  }
  // a > b ? fill : v, per lane; whether any lane has a > b.
  static V fill_where_greater(V v, V a, V b, float fill) {
    return _mm256_blendv_ps(v, _mm256_set1_ps(fill), _mm256_cmp_ps(a, b, _CMP_GT_OQ));
  }
  static bool any_greater(V a, V b) {
    return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_GT_OQ)) != 0;
  }
};

// The f64 micro-kernel's members only.
struct F64x4 {
  using T = double;
  using V = __m256d;
  static constexpr int kLanes = 4;
  static V set1(double v) { return _mm256_set1_pd(v); }
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static V load_aligned(const double* p) { return _mm256_load_pd(p); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
};

}  // namespace
}  // namespace ridgeline::ops
