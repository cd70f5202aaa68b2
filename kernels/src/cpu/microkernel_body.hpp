#pragma once
// The register-blocked micro-kernel, written once over a SIMD traits type S (T, V,
// kLanes, zero, load, loadu, storeu, broadcast, fma, add), and its epilogue variant and
// passes, whose activations need ops::activate's traits too (set1, mul, max, min, round,
// pow2, zero_where_less, div; ../ops/activation_simd.hpp). Included only by the
// ISA-specific translation units; the anonymous namespace gives each its own copy.
#include <immintrin.h>

#include <cstdint>

#include "../ops/activation_simd.hpp"

namespace ridgeline::packed {
namespace {

// acc := A_panel * B_panel. Inlined into both kernels, so the accumulators stay in registers.
template <typename S, int MR, int NV>
[[gnu::always_inline]] inline void multiply(std::int64_t kc, const typename S::T* __restrict a,
                                            const typename S::T* __restrict b,
                                            typename S::V (&acc)[MR][NV]) {
  constexpr int NR = NV * S::kLanes;
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
}

template <typename S, int MR, int NV>
void kernel(std::int64_t kc, const typename S::T* __restrict a, const typename S::T* __restrict b,
            typename S::T* __restrict c, std::int64_t ldc, bool accumulate) {
  typename S::V acc[MR][NV];
  multiply<S, MR, NV>(kc, a, b, acc);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      typename S::T* cp = c + i * ldc + v * S::kLanes;
      S::storeu(cp, accumulate ? S::add(S::loadu(cp), acc[i][v]) : acc[i][v]);
    }
}

// The tile's store with bias and activation: one row at a time, so each row's
// accumulators are free again before the next row's activation needs temporaries.
template <typename S, int MR, int NV, ops::Activation kAct>
[[gnu::always_inline]] inline void store_activated(typename S::V (&acc)[MR][NV],
                                                   typename S::T* __restrict c, std::int64_t ldc,
                                                   bool accumulate,
                                                   const typename S::T* __restrict bias) {
  typename S::V bv[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) bv[v] = S::loadu(bias + v * S::kLanes);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      typename S::T* cp = c + i * ldc + v * S::kLanes;
      typename S::V x = S::add(acc[i][v], bv[v]);
      if (accumulate) x = S::add(S::loadu(cp), x);
      S::storeu(cp, ops::activate<S>(x, kAct));
    }
}

template <typename S, int MR, int NV>
void kernel_epilogue(std::int64_t kc, const typename S::T* __restrict a,
                     const typename S::T* __restrict b, typename S::T* __restrict c,
                     std::int64_t ldc, bool accumulate, const typename S::T* __restrict bias,
                     ops::Activation act) {
  typename S::V acc[MR][NV];
  multiply<S, MR, NV>(kc, a, b, acc);
  if (act == ops::Activation::relu)
    store_activated<S, MR, NV, ops::Activation::relu>(acc, c, ldc, accumulate, bias);
  else
    store_activated<S, MR, NV, ops::Activation::gelu_tanh>(acc, c, ldc, accumulate, bias);
}

// The passes of the unfused gemm_bias_act. A row's tail (fewer than kLanes elements) goes
// through a vector-sized buffer, so it runs the same code as the rest.
template <typename S>
void add_bias_rows(float* c, const float* bias, std::int64_t rows, std::int64_t n) {
  constexpr int W = S::kLanes;
  for (std::int64_t i = 0; i < rows; ++i) {
    float* row = c + i * n;
    std::int64_t j = 0;
    for (; j + W <= n; j += W) S::storeu(row + j, S::add(S::loadu(row + j), S::loadu(bias + j)));
    if (j < n) {
      alignas(64) float x[W] = {}, b[W] = {};
      for (std::int64_t t = j; t < n; ++t) x[t - j] = row[t], b[t - j] = bias[t];
      S::storeu(x, S::add(S::loadu(x), S::loadu(b)));
      for (std::int64_t t = j; t < n; ++t) row[t] = x[t - j];
    }
  }
}

template <typename S, ops::Activation kAct>
void activate_all(float* c, std::int64_t count) {
  constexpr int W = S::kLanes;
  std::int64_t j = 0;
  for (; j + W <= count; j += W) S::storeu(c + j, ops::activate<S>(S::loadu(c + j), kAct));
  if (j < count) {
    alignas(64) float x[W] = {};
    for (std::int64_t t = j; t < count; ++t) x[t - j] = c[t];
    S::storeu(x, ops::activate<S>(S::loadu(x), kAct));
    for (std::int64_t t = j; t < count; ++t) c[t] = x[t - j];
  }
}

template <typename S>
void activate_pass(float* c, std::int64_t count, ops::Activation act) {
  if (act == ops::Activation::relu)
    activate_all<S, ops::Activation::relu>(c, count);
  else
    activate_all<S, ops::Activation::gelu_tanh>(c, count);
}

}  // namespace
}  // namespace ridgeline::packed
