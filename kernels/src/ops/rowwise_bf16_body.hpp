#pragma once
// The bf16 forms of the row-wise ops: bf16 in memory for every operand (x, gamma, beta, y and
// the unfused intermediates), f32 arithmetic, results rounded to nearest even. Included only
// by rowwise_avx512.cpp, after the f32 bodies, whose row functions and passes it reuses:
//   fused    the f32 row functions and driver over Bf16Elems: each sweep widens x in
//            registers, the last rounds into y (softmax's exp values stay in a per-thread f32
//            row): x read once, y written once (streamed past the cache), as in f32;
//   unfused  the f32 passes over Bf16IO: each pass widens tiles of 256 elements on the stack
//            and narrows its results, so every intermediate goes through memory as bf16;
//   chain    each register is widened on load and narrowed on store.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bf16_avx512.hpp"
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"
#include "simd_avx512.hpp"

namespace ridgeline::ops {
namespace {

struct Bf16IO {
  using T = std::uint16_t;
  static constexpr bool kDirect = false;
  static constexpr std::int64_t kTile = 256;
  static void widen(const T* src, float* dst, std::int64_t n) { widen_bf16_row(src, dst, n); }
  static void narrow(const float* src, T* dst, std::int64_t n) { narrow_bf16_row(src, dst, n); }
  static float get(const T* p) { return _mm512_cvtss_f32(widen_bf16_tail(p, 1)); }
  static void put(T* p, float v) { narrow_bf16_tail(p, 1, _mm512_set1_ps(v)); }
};

// bf16 rows for the fused row functions: widened in registers on load, rounded to nearest
// even on store. Tail lanes past `count` hold `fill`, as F32Elems' do.
struct Bf16Elems {
  using T = std::uint16_t;
  using V = __m512;
  static __m512 load(const T* p) { return widen_bf16(p); }
  static __m512 load_tail(const T* p, int count, float fill) {
    return _mm512_mask_mov_ps(_mm512_set1_ps(fill), F32x16::mask(count), widen_bf16_tail(p, count));
  }
  static void store(T* p, __m512 v) { narrow_bf16(p, v); }
  static void store_tail(T* p, int count, __m512 v) { narrow_bf16_tail(p, count, v); }
  static void stream(T* p, __m512 v) { stream_bf16(p, v); }
};

// The f32 row functions over Bf16Elems, through the f32 driver: x is read and y written in
// bf16 by the sweeps themselves. In f32: gamma and beta, widened once per call, and for
// softmax each thread's row of exp values (cols floats, in L1/L2).
std::vector<float> widened(const std::uint16_t* v, std::int64_t n) {
  std::vector<float> out(v ? static_cast<std::size_t>(n) : 0);
  if (v) widen_bf16_row(v, out.data(), n);
  return out;
}

void softmax_rows_bf16(const std::uint16_t* x, std::uint16_t* y, std::uint16_t*, std::int64_t rows,
                       std::int64_t cols, int threads) {
  fused_rows<F32x16>(x, y, rows, cols, 1, false, true, threads,
                     [&](std::int64_t r, std::int64_t, float* work, Ahead ahead) {
                       softmax_row<F32x16, Bf16Elems>(x + r * cols, work, y + r * cols, cols,
                                                      ahead);
                     });
}

void layernorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma,
                         const std::uint16_t* beta, std::uint16_t* y, std::uint16_t*,
                         std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const std::vector<float> g = widened(gamma, cols), b = widened(beta, cols);
  const bool stream = stream_rows<std::uint16_t>(rows, cols);
  fused_rows<F32x16>(x, y, rows, cols, kNormGroup<std::uint16_t>, stream, false, threads,
                     [&](std::int64_t r, std::int64_t count, float*, Ahead ahead) {
                       layernorm_group<F32x16, Bf16Elems>(x + r * cols, g.data(), b.data(),
                                                          y + r * cols, count, cols, eps, stream,
                                                          ahead);
                     });
}

void rmsnorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                       std::uint16_t*, std::int64_t rows, std::int64_t cols, float eps,
                       int threads) {
  const std::vector<float> g = widened(gamma, cols);
  const bool stream = stream_rows<std::uint16_t>(rows, cols);
  fused_rows<F32x16>(x, y, rows, cols, kNormGroup<std::uint16_t>, stream, false, threads,
                     [&](std::int64_t r, std::int64_t count, float*, Ahead ahead) {
                       rmsnorm_group<F32x16, Bf16Elems>(x + r * cols, g.data(), y + r * cols, count,
                                                        cols, eps, stream, ahead);
                     });
}

void eltwise_chain_bf16(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, int L,
                        int threads) {
  eltwise_chain_blocks<F32x16>(
      x, y, n, L, threads,
      [](const std::uint16_t* p, int count) {
        return count == 16 ? widen_bf16(p) : widen_bf16_tail(p, count);
      },
      [](std::uint16_t* p, int count, __m512 v) {
        if (count == 16)
          narrow_bf16(p, v);
        else
          narrow_bf16_tail(p, count, v);
      });
}

constexpr detail::RowwiseKernelsBf16 fused_bf16_table() {
  return {&softmax_rows_bf16, &layernorm_rows_bf16, &rmsnorm_rows_bf16, &eltwise_chain_bf16};
}

}  // namespace
}  // namespace ridgeline::ops
