// Peak chains for the AArch64 baseline (Armv8-A): scalar FMADD and Advanced SIMD FMLA on f64
// and f32. Each chain accumulates (acc += m x a), as GEMM's inner loops do; the products are
// small, so the accumulators stay finite for any run length.
#include <arm_neon.h>

#include "peak_body.hpp"
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

// Scalar FMADD written out: the compiler would otherwise pair the chains into vector FMLAs.
double peak_f64_scalar_fma(std::int64_t iterations) {
  const double m = 1e-3, a = 1e-3;
  return run_chains<kArmChains, double>(
      iterations, [](int i) { return 1.0 + i; },
      [&](double x) {
        asm("fmadd %d0, %d1, %d2, %d0" : "+w"(x) : "w"(m), "w"(a));
        return x;
      },
      [](double x) { return x; });
}

double peak_f32_scalar_fma(std::int64_t iterations) {
  const float m = 1e-3f, a = 1e-3f;
  return run_chains<kArmChains, float>(
      iterations, [](int i) { return 1.0f + static_cast<float>(i); },
      [&](float x) {
        asm("fmadd %s0, %s1, %s2, %s0" : "+w"(x) : "w"(m), "w"(a));
        return x;
      },
      [](float x) { return double(x); });
}

double peak_f64_neon_fma(std::int64_t iterations) {
  const float64x2_t m = vdupq_n_f64(1e-3), a = vdupq_n_f64(1e-3);
  return run_chains<kArmChains, float64x2_t>(
      iterations, [](int i) { return vdupq_n_f64(1.0 + i); },
      [&](float64x2_t x) { return vfmaq_f64(x, m, a); },
      [](float64x2_t x) { return vgetq_lane_f64(x, 0); });
}

double peak_f32_neon_fma(std::int64_t iterations) {
  const float32x4_t m = vdupq_n_f32(1e-3f), a = vdupq_n_f32(1e-3f);
  return run_chains<kArmChains, float32x4_t>(
      iterations, [](int i) { return vdupq_n_f32(1.0f + static_cast<float>(i)); },
      [&](float32x4_t x) { return vfmaq_f32(x, m, a); },
      [](float32x4_t x) { return double(vgetq_lane_f32(x, 0)); });
}

}  // namespace ridgeline::ceilings
