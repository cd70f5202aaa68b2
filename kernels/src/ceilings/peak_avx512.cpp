// Peak chains for AVX-512: FMA (f64, f32), BF16 dot products (vdpbf16ps) and VNNI int8
// dot products (vpdpbusd). Sixteen chains cover two 512-bit pipes of latency up to eight.
#include <immintrin.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

namespace {
// Through memory: GCC 12's 512-to-128-bit casts warn about an undefined upper half.
double first_lane_pd(__m512d x) {
  alignas(64) double t[8];
  _mm512_store_pd(t, x);
  return t[0];
}
double first_lane_ps(__m512 x) {
  alignas(64) float t[16];
  _mm512_store_ps(t, x);
  return t[0];
}
double first_lane_epi32(__m512i x) {
  alignas(64) std::int32_t t[16];
  _mm512_store_si512(t, x);
  return t[0];
}
}  // namespace

double peak_f64_avx512_fma(std::int64_t iterations) {
  const __m512d m = _mm512_set1_pd(0.999999), a = _mm512_set1_pd(1e-6);
  return run_chains<16, __m512d>(
      iterations, [](int i) { return _mm512_set1_pd(1.0 + i); },
      [&](__m512d x) { return _mm512_fmadd_pd(x, m, a); }, &first_lane_pd);
}

double peak_f32_avx512_fma(std::int64_t iterations) {
  const __m512 m = _mm512_set1_ps(0.999f), a = _mm512_set1_ps(1e-3f);
  return run_chains<16, __m512>(
      iterations, [](int i) { return _mm512_set1_ps(1.0f + i); },
      [&](__m512 x) { return _mm512_fmadd_ps(x, m, a); }, &first_lane_ps);
}

double peak_bf16_avx512_dot(std::int64_t iterations) {
  const __m512bh a = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(1e-3f));
  const __m512bh b = _mm512_cvtne2ps_pbh(_mm512_set1_ps(0.5f), _mm512_set1_ps(0.5f));
  return run_chains<16, __m512>(
      iterations, [](int i) { return _mm512_set1_ps(1.0f + i); },
      [&](__m512 x) { return _mm512_dpbf16_ps(x, a, b); }, &first_lane_ps);
}

double peak_i8_avx512_vnni(std::int64_t iterations) {
  const __m512i a = _mm512_set1_epi8(1), b = _mm512_set1_epi8(1);
  return run_chains<16, __m512i>(
      iterations, [](int i) { return _mm512_set1_epi32(i); },
      [&](__m512i x) { return _mm512_dpbusd_epi32(x, a, b); }, &first_lane_epi32);
}

}  // namespace ridgeline::ceilings
