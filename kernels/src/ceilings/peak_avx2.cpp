// Peak chains for the baseline ISA (x86-64-v3): scalar FMA and 256-bit FMA. Twelve chains
// cover two FMA pipes of latency up to six cycles.
#include <immintrin.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

double peak_f64_scalar_fma(std::int64_t iterations) {
  const __m128d m = _mm_set_sd(0.999999), a = _mm_set_sd(1e-6);
  return run_chains<12, __m128d>(
      iterations, [](int i) { return _mm_set_sd(1.0 + i); },
      [&](__m128d x) { return _mm_fmadd_sd(x, m, a); }, [](__m128d x) { return _mm_cvtsd_f64(x); });
}

double peak_f32_scalar_fma(std::int64_t iterations) {
  const __m128 m = _mm_set_ss(0.999f), a = _mm_set_ss(1e-3f);
  return run_chains<12, __m128>(
      iterations, [](int i) { return _mm_set_ss(1.0f + i); },
      [&](__m128 x) { return _mm_fmadd_ss(x, m, a); },
      [](__m128 x) { return double(_mm_cvtss_f32(x)); });
}

double peak_f64_avx2_fma(std::int64_t iterations) {
  const __m256d m = _mm256_set1_pd(0.999999), a = _mm256_set1_pd(1e-6);
  return run_chains<12, __m256d>(
      iterations, [](int i) { return _mm256_set1_pd(1.0 + i); },
      [&](__m256d x) { return _mm256_fmadd_pd(x, m, a); },
      [](__m256d x) { return _mm_cvtsd_f64(_mm256_castpd256_pd128(x)); });
}

double peak_f32_avx2_fma(std::int64_t iterations) {
  const __m256 m = _mm256_set1_ps(0.999f), a = _mm256_set1_ps(1e-3f);
  return run_chains<12, __m256>(
      iterations, [](int i) { return _mm256_set1_ps(1.0f + i); },
      [&](__m256 x) { return _mm256_fmadd_ps(x, m, a); },
      [](__m256 x) { return double(_mm_cvtss_f32(_mm256_castps256_ps128(x))); });
}

}  // namespace ridgeline::ceilings
