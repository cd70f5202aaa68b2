#pragma once
// The bf16 forms of the row-wise ops: bf16 in memory for every operand (x, gamma, beta, y and
// the unfused intermediates), f32 arithmetic, results rounded to nearest even. Included only
// by rowwise_avx512.cpp, after the f32 bodies, whose row functions and passes it reuses:
//   fused    a row of x is widened once into a per-thread f32 buffer (cols floats, held in
//            L1/L2), the f32 row function writes a second buffer, which is narrowed into y:
//            x read once, y written once, as in f32;
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

// Per thread: the widened row, the f32 result row, and the widened weights (each thread its
// own copy, next to the rows in its core's cache).
template <typename RowFn>
void fused_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma, const std::uint16_t* beta,
                     std::uint16_t* y, std::int64_t rows, std::int64_t cols, int threads,
                     RowFn row) {
#pragma omp parallel num_threads(threads)
  {
    std::vector<float> buf(static_cast<std::size_t>(cols) * (2 + (gamma ? 1 : 0) + (beta ? 1 : 0)));
    float* xr = buf.data();
    float* yr = xr + cols;
    float* g = gamma ? yr + cols : nullptr;
    float* b = beta ? g + cols : nullptr;
    if (gamma) widen_bf16_row(gamma, g, cols);
    if (beta) widen_bf16_row(beta, b, cols);
#pragma omp for schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) {
      widen_bf16_row(x + r * cols, xr, cols);
      row(xr, g, b, yr);
      narrow_bf16_row(yr, y + r * cols, cols);
    }
  }
}

void softmax_rows_bf16(const std::uint16_t* x, std::uint16_t* y, std::uint16_t*, std::int64_t rows,
                       std::int64_t cols, int threads) {
  fused_rows_bf16(x, nullptr, nullptr, y, rows, cols, threads,
                  [cols](const float* xr, const float*, const float*, float* yr) {
                    softmax_row<F32x16>(xr, yr, cols);
                  });
}

void layernorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma,
                         const std::uint16_t* beta, std::uint16_t* y, std::uint16_t*,
                         std::int64_t rows, std::int64_t cols, float eps, int threads) {
  fused_rows_bf16(x, gamma, beta, y, rows, cols, threads,
                  [cols, eps](const float* xr, const float* g, const float* b, float* yr) {
                    layernorm_row<F32x16>(xr, g, b, yr, cols, eps);
                  });
}

void rmsnorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                       std::uint16_t*, std::int64_t rows, std::int64_t cols, float eps,
                       int threads) {
  fused_rows_bf16(x, gamma, nullptr, y, rows, cols, threads,
                  [cols, eps](const float* xr, const float* g, const float*, float* yr) {
                    rmsnorm_row<F32x16>(xr, g, yr, cols, eps);
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
