// AVX-512 micro-kernels: 14 rows x 2 zmm columns of accumulators (28 of the 32 zmm
// registers), 2 loads of B and 14 broadcasts of A per rank-1 update.
#include <immintrin.h>

#include "microkernel.hpp"
#include "microkernel_body.hpp"

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

MicroKernel<float> microkernel_f32_avx512() {
  return {"gemm_f32_avx512_14x32", 14, 32, &kernel<F32x16, 14, 2>};
}
MicroKernel<double> microkernel_f64_avx512() {
  return {"gemm_f64_avx512_14x16", 14, 16, &kernel<F64x8, 14, 2>};
}

}  // namespace ridgeline::packed
