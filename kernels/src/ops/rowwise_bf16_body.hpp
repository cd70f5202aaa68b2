#pragma once
// The bf16 forms of the row-wise ops: bf16 in memory for every operand (x, gamma, beta, y and
// the unfused intermediates), f32 arithmetic, results rounded to nearest even. Included only
// by rowwise_avx512.cpp, after the f32 bodies, whose row functions and passes it reuses:
//   fused    the f32 row functions over Bf16Elems: each sweep widens x in registers, the
//            last rounds into y (softmax's exp values stay in a per-thread f32 row): x read
//            once, y written once, as in f32, and no staging sweeps;
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
  static __m512 load(const T* p) { return widen_bf16(p); }
  static __m512 load_tail(const T* p, int count, float fill) {
    return _mm512_mask_mov_ps(_mm512_set1_ps(fill), F32x16::mask(count), widen_bf16_tail(p, count));
  }
  static void store(T* p, __m512 v) { narrow_bf16(p, v); }
  static void store_tail(T* p, int count, __m512 v) { narrow_bf16_tail(p, count, v); }
};

// The f32 row functions over Bf16Elems: x is read and y written in bf16 by the sweeps
// themselves. Per thread, in f32: gamma and beta widened once (next to the rows in its core's
// cache) and, for softmax, the row of exp values (cols floats, in L1/L2).
template <typename RowFn>
void fused_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma, const std::uint16_t* beta,
                     std::uint16_t* y, std::int64_t rows, std::int64_t cols, bool work, int threads,
                     RowFn row) {
#pragma omp parallel num_threads(threads)
  {
    const int rows_f32 = (work ? 1 : 0) + (gamma ? 1 : 0) + (beta ? 1 : 0);
    std::vector<float> buf(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows_f32));
    float* w = work ? buf.data() : nullptr;
    float* g = gamma ? buf.data() + (work ? cols : 0) : nullptr;
    float* b = beta ? g + cols : nullptr;
    if (gamma) widen_bf16_row(gamma, g, cols);
    if (beta) widen_bf16_row(beta, b, cols);
#pragma omp for schedule(static)
    for (std::int64_t r = 0; r < rows; ++r)
      row(x + r * cols, w, g, b, y + r * cols, ahead_of(x, y, r, rows, cols));
  }
}

void softmax_rows_bf16(const std::uint16_t* x, std::uint16_t* y, std::uint16_t*, std::int64_t rows,
                       std::int64_t cols, int threads) {
  fused_rows_bf16(
      x, nullptr, nullptr, y, rows, cols, true, threads,
      [cols](const std::uint16_t* xr, float* w, const float*, const float*, std::uint16_t* yr,
             Ahead ahead) { softmax_row<F32x16, Bf16Elems>(xr, w, yr, cols, ahead); });
}

void layernorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma,
                         const std::uint16_t* beta, std::uint16_t* y, std::uint16_t*,
                         std::int64_t rows, std::int64_t cols, float eps, int threads) {
  fused_rows_bf16(x, gamma, beta, y, rows, cols, false, threads,
                  [cols, eps](const std::uint16_t* xr, float*, const float* g, const float* b,
                              std::uint16_t* yr, Ahead ahead) {
                    layernorm_row<F32x16, Bf16Elems>(xr, g, b, yr, cols, eps, ahead);
                  });
}

void rmsnorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                       std::uint16_t*, std::int64_t rows, std::int64_t cols, float eps,
                       int threads) {
  fused_rows_bf16(
      x, gamma, nullptr, y, rows, cols, false, threads,
      [cols, eps](const std::uint16_t* xr, float*, const float* g, const float*, std::uint16_t* yr,
                  Ahead ahead) { rmsnorm_row<F32x16, Bf16Elems>(xr, g, yr, cols, eps, ahead); });
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
