#pragma once
// The register-blocked micro-kernel, written once over a SIMD traits type S (T, V,
// kLanes, zero, load, loadu, storeu, broadcast, fma, add). Included only by the
// ISA-specific translation units; the anonymous namespace gives each its own copy.
#include <immintrin.h>

#include <cstdint>

namespace ridgeline::packed {
namespace {

template <typename S, int MR, int NV>
void kernel(std::int64_t kc, const typename S::T* __restrict a, const typename S::T* __restrict b,
            typename S::T* __restrict c, std::int64_t ldc, bool accumulate) {
  constexpr int NR = NV * S::kLanes;
  typename S::V acc[MR][NV];
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[i][v] = S::zero();

  for (std::int64_t p = 0; p < kc; ++p) {
    typename S::V bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) bv[v] = S::load(b + v * S::kLanes);
    _mm_prefetch(reinterpret_cast<const char*>(b + 8 * NR), _MM_HINT_T0);
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) {
      typename S::V av = S::broadcast(a + i);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[i][v] = S::fma(av, bv[v], acc[i][v]);
    }
    a += MR;
    b += NR;
  }

#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      typename S::T* cp = c + i * ldc + v * S::kLanes;
      S::storeu(cp, accumulate ? S::add(S::loadu(cp), acc[i][v]) : acc[i][v]);
    }
}

}  // namespace
}  // namespace ridgeline::packed
