// AVX2 micro-kernels: 6 rows x 2 ymm columns of accumulators (12 of the 16 ymm
// registers), 2 loads of B and 6 broadcasts of A per rank-1 update (the BLIS haswell shape);
// the f32 one also with the gemm_bias_act epilogue, and that epilogue's passes.
#include <immintrin.h>

#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "panel_packing.hpp"

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
  // For the epilogue's activations (ops::activate).
  static V set1(float v) { return _mm256_set1_ps(v); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }
  static V round(V v) { return _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static V pow2(V n) {
    const __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
  }
  static V zero_where_less(V v, V x, V bound) {
    return _mm256_andnot_ps(_mm256_cmp_ps(x, bound, _CMP_LT_OQ), v);
  }
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

using F32 = FmaInputs<F32x8>;
using F64 = FmaInputs<F64x4>;

}  // namespace

MicroKernel<float> microkernel_f32_avx2() {
  return {"gemm_f32_avx2_6x16", 6, 16, &kernel<F32, 6, 2>, &kernel_epilogue<F32, 6, 2>,
          &pack_panel<float>};
}
MicroKernel<double> microkernel_f64_avx2() {
  return {"gemm_f64_avx2_6x8", 6, 8, &kernel<F64, 6, 2>, nullptr, &pack_panel<double>};
}
EpiloguePasses<float> epilogue_passes_avx2() {
  return {&add_bias_rows<F32>, &activate_pass<F32>};
}

}  // namespace ridgeline::packed
