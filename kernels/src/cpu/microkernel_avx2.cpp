// AVX2 micro-kernels: 6 rows x 2 ymm columns of accumulators (12 of the 16 ymm
// registers), 2 loads of B and 6 broadcasts of A per rank-1 update (the BLIS haswell shape).
#include <immintrin.h>

#include "microkernel.hpp"
#include "microkernel_body.hpp"

namespace ridgeline::packed {

namespace {

struct F32x8 {
  using T = float;
  using V = __m256;
  static constexpr int kLanes = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const T* p) { return _mm256_load_ps(p); }
  static V loadu(const T* p) { return _mm256_loadu_ps(p); }
  static void storeu(T* p, V v) { _mm256_storeu_ps(p, v); }
  static V broadcast(const T* p) { return _mm256_set1_ps(*p); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
};

struct F64x4 {
  using T = double;
  using V = __m256d;
  static constexpr int kLanes = 4;
  static V zero() { return _mm256_setzero_pd(); }
  static V load(const T* p) { return _mm256_load_pd(p); }
  static V loadu(const T* p) { return _mm256_loadu_pd(p); }
  static void storeu(T* p, V v) { _mm256_storeu_pd(p, v); }
  static V broadcast(const T* p) { return _mm256_set1_pd(*p); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
};

}  // namespace

MicroKernel<float> microkernel_f32_avx2() {
  return {"gemm_f32_avx2_6x16", 6, 16, &kernel<F32x8, 6, 2>};
}
MicroKernel<double> microkernel_f64_avx2() {
  return {"gemm_f64_avx2_6x8", 6, 8, &kernel<F64x4, 6, 2>};
}

}  // namespace ridgeline::packed
