#pragma once
// The register-blocked micro-kernel, written once over a SIMD traits type S (T, V, kLanes,
// set1, load, load_aligned, store, fma, add: the row-wise ops' traits, ../ops/simd_avx512.hpp
// and simd_avx2.hpp) with its packed operands' side (In, VIn, kK, load_in, broadcast_in, dot,
// load_bias, and optionally start; FmaInputs gives them to a traits type whose inputs are its
// own T), and its epilogue variant and passes, whose activations need ops::activate's traits
// too (mul, max, min, round, pow2, zero_where_less, div; ../ops/activation_simd.hpp). The
// i8 kernel's traits (microkernel_avx512_vnni.cpp) have no epilogue. Included only by the
// ISA-specific translation units; the anonymous namespace gives each its own copy. Prefetches
// are GCC's builtin, which both architectures' units compile (PREFETCHT0 / PRFM PLDL1KEEP at
// locality 3, PREFETCHT1 / PRFM PLDL2KEEP at 2).
#include <array>
#include <cstdint>
#include <utility>

#include "../ops/activation_simd.hpp"
#include "microkernel.hpp"

namespace ridgeline::packed {
namespace {

// Inputs of the accumulators' own type: one k step per FMA (kGroup<T> == 1).
template <typename S>
struct FmaInputs : S {
  using In = typename S::T;
  using VIn = typename S::V;
  static constexpr int kK = 1;
  static VIn load_in(const In* p) { return S::load_aligned(p); }
  static VIn broadcast_in(const In* p) { return S::set1(*p); }
  static typename S::V dot(VIn a, VIn b, typename S::V acc) { return S::fma(a, b, acc); }
  static typename S::V load_bias(const In* p) { return S::load(p); }
};

// One k step (kK of them for grouped inputs) of acc += A_panel * B_panel; a and b advance.
// MR rows are computed of an A panel packed AS rows wide (AS > MR for the last panel's
// rows, kernel_rows). Inlined, so the accumulators stay in registers.
template <typename S, int MR, int NV, int AS>
[[gnu::always_inline]] inline void step(const typename S::In* __restrict& a,
                                        const typename S::In* __restrict& b,
                                        typename S::V (&acc)[MR][NV]) {
  constexpr int K = S::kK;
  constexpr int NR = NV * S::kLanes;
  typename S::VIn bv[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) bv[v] = S::load_in(b + v * S::kLanes * K);
  // Every line of B's step 8 steps ahead: the panel (kc x NR) sits in L2, not L1. One line
  // per step, where a 6 x 32 f64 step is four, ran 2.5-3.7% slower at n = 4096 on two
  // threads (Zen 5 VM, alternating runs; within the noise at n = 1024).
  constexpr int kStepLines =
      static_cast<int>((NR * K * sizeof(typename S::In) + kLineBytes - 1) / kLineBytes);
  const char* ahead = reinterpret_cast<const char*>(b + 8 * NR * K);
#pragma GCC unroll 8
  for (int l = 0; l < kStepLines; ++l) __builtin_prefetch(ahead + l * kLineBytes, 0, 3);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i) {
    typename S::VIn av = S::broadcast_in(a + i * K);
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = S::dot(av, bv[v], acc[i][v]);
  }
  a += AS * K;
  b += NR * K;
}

// kc k steps, and one line of `next` requested into L2 every kNextEvery of them (next
// advances; none where it is null).
template <typename S, int MR, int NV, int AS>
[[gnu::always_inline]] inline void steps(std::int64_t kc, const typename S::In* __restrict& a,
                                         const typename S::In* __restrict& b,
                                         typename S::V (&acc)[MR][NV], const char*& next) {
  constexpr int K = S::kK;
  std::int64_t p = 0;
  for (; p + kNextEvery <= kc; p += kNextEvery) {
    if (next) {
      __builtin_prefetch(next, 0, 2);
      next += kLineBytes;
    }
    for (std::int64_t s = 0; s < kNextEvery; s += K) step<S, MR, NV, AS>(a, b, acc);
  }
  for (; p < kc; p += K) step<S, MR, NV, AS>(a, b, acc);
}

// The accumulators' start for the vector column v of a B panel whose packed entries end at
// `tail`: zero, or S::start's (the i8 kernel's sign correction, in the panel's tail).
template <typename S>
[[gnu::always_inline]] inline typename S::V start(const typename S::In* tail, int v) {
  if constexpr (requires { S::start(tail, v); })
    return S::start(tail, v);
  else
    return S::set1(0);
}

// acc := A_panel * B_panel (kc is a multiple of kK), the tile of C it is stored to fetched
// while the last kPrefetchC steps run (microkernel.hpp).
template <typename S, int MR, int NV, int AS = MR>
[[gnu::always_inline]] inline void multiply(std::int64_t kc, const typename S::In* __restrict a,
                                            const typename S::In* __restrict b,
                                            const void* next_line, typename S::V (&acc)[MR][NV],
                                            const typename S::T* c, std::int64_t ldc) {
  static_assert(S::kK == kGroup<typename S::In>, "the driver packs kGroup<In> k steps together");
  constexpr int NR = NV * S::kLanes;
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = start<S>(b + kc * NR, v);
  const std::int64_t head = kc > kPrefetchC ? kc - kPrefetchC : 0;
  const char* next = static_cast<const char*>(next_line);
  steps<S, MR, NV, AS>(head, a, b, acc, next);
  prefetch_c_tile(c, ldc, MR, NR * static_cast<std::int64_t>(sizeof(typename S::T)));
  steps<S, MR, NV, AS>(kc - head, a, b, acc, next);
}

template <typename S, int MR, int NV, int AS = MR>
void kernel(std::int64_t kc, const typename S::In* __restrict a, const typename S::In* __restrict b,
            const typename S::In* next, typename S::T* __restrict c, std::int64_t ldc,
            bool accumulate) {
  typename S::V acc[MR][NV];
  multiply<S, MR, NV, AS>(kc, a, b, next, acc, c, ldc);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) {
      typename S::T* cp = c + i * ldc + v * S::kLanes;
      S::store(cp, accumulate ? S::add(S::load(cp), acc[i][v]) : acc[i][v]);
    }
}

// The first `rows` (1 to MR - 1) rows of an MR-row panel, stored straight to C: the last
// panel of an m that is not a multiple of MR computes only the rows it has (through the
// full kernel and a scratch tile, f64 m = 1024, 2 rows past 73 panels, ran 1.5-2% slower
// than m = 1022).
template <typename S, int MR, int NV, std::size_t... R>
constexpr auto row_kernels(std::index_sequence<R...>) {
  return std::array<MicroKernelFn<typename S::In, typename S::T>, sizeof...(R)>{
      &kernel<S, static_cast<int>(R) + 1, NV, MR>...};
}

template <typename S, int MR, int NV>
void kernel_rows(int rows, std::int64_t kc, const typename S::In* a, const typename S::In* b,
                 const typename S::In* next, typename S::T* c, std::int64_t ldc, bool accumulate) {
  static constexpr auto kTable = row_kernels<S, MR, NV>(std::make_index_sequence<MR - 1>());
  kTable[static_cast<std::size_t>(rows - 1)](kc, a, b, next, c, ldc, accumulate);
}

// The tile's store with bias and activation: one row at a time, so each row's
// accumulators are free again before the next row's activation needs temporaries.
template <typename S, int MR, int NV, ops::Activation kAct>
[[gnu::always_inline]] inline void store_activated(typename S::V (&acc)[MR][NV],
                                                   typename S::T* __restrict c, std::int64_t ldc,
                                                   bool accumulate,
                                                   const typename S::In* __restrict bias) {
  typename S::V bv[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) bv[v] = S::load_bias(bias + v * S::kLanes);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) {
      typename S::T* cp = c + i * ldc + v * S::kLanes;
      typename S::V x = S::add(acc[i][v], bv[v]);
      if (accumulate) x = S::add(S::load(cp), x);
      S::store(cp, ops::activate<S>(x, kAct));
    }
}

template <typename S, int MR, int NV>
void kernel_epilogue(std::int64_t kc, const typename S::In* __restrict a,
                     const typename S::In* __restrict b, const typename S::In* next,
                     typename S::T* __restrict c, std::int64_t ldc, bool accumulate,
                     const typename S::In* __restrict bias, ops::Activation act) {
  typename S::V acc[MR][NV];
  multiply<S, MR, NV>(kc, a, b, next, acc, c, ldc);
  if (act == ops::Activation::relu)
    store_activated<S, MR, NV, ops::Activation::relu>(acc, c, ldc, accumulate, bias);
  else
    store_activated<S, MR, NV, ops::Activation::gelu_tanh>(acc, c, ldc, accumulate, bias);
}

// The passes of the unfused gemm_bias_act. A row's tail (fewer than kLanes elements) goes
// through a vector-sized buffer, so it runs the same code as the rest.
template <typename S>
void add_bias_rows(float* c, const typename S::In* bias, std::int64_t rows, std::int64_t n) {
  constexpr int W = S::kLanes;
  for (std::int64_t i = 0; i < rows; ++i) {
    float* row = c + i * n;
    std::int64_t j = 0;
    for (; j + W <= n; j += W) S::store(row + j, S::add(S::load(row + j), S::load_bias(bias + j)));
    if (j < n) {
      alignas(64) float x[W] = {};
      alignas(64) typename S::In b[W] = {};
      for (std::int64_t t = j; t < n; ++t) x[t - j] = row[t], b[t - j] = bias[t];
      S::store(x, S::add(S::load(x), S::load_bias(b)));
      for (std::int64_t t = j; t < n; ++t) row[t] = x[t - j];
    }
  }
}

template <typename S, ops::Activation kAct>
void activate_all(float* c, std::int64_t count) {
  constexpr int W = S::kLanes;
  std::int64_t j = 0;
  for (; j + W <= count; j += W) S::store(c + j, ops::activate<S>(S::load(c + j), kAct));
  if (j < count) {
    alignas(64) float x[W] = {};
    for (std::int64_t t = j; t < count; ++t) x[t - j] = c[t];
    S::store(x, ops::activate<S>(S::load(x), kAct));
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
