// Peak chains for AVX512-FP16 (Sapphire Rapids on): vfmadd231ph on 32 fp16 lanes, 64 FLOPs an
// instruction, on the same two 512-bit FMA pipes as f32, so twice f32's rate. Sixteen chains
// cover two pipes of latency up to eight. Built with -mavx512fp16.
#include <immintrin.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

namespace {
double first_lane_ph(__m512h x) {
  alignas(64) _Float16 t[32];
  _mm512_store_ph(t, x);
  return static_cast<double>(t[0]);
}
}  // namespace

double peak_f16_avx512fp16_fma(std::int64_t iterations) {
  const __m512h m = _mm512_set1_ph(static_cast<_Float16>(0.999f));
  const __m512h a = _mm512_set1_ph(static_cast<_Float16>(1e-3f));
  return run_chains<16, __m512h>(
      iterations, [](int i) { return _mm512_set1_ph(static_cast<_Float16>(1.0f + 0.01f * i)); },
      [&](__m512h x) { return _mm512_fmadd_ph(x, m, a); }, &first_lane_ph);
}

}  // namespace ridgeline::ceilings
