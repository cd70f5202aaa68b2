#pragma once
// The unfused ops: what an eager framework runs, one kernel per elementary step. Every pass
// is its own OpenMP parallel loop with a vectorised (`omp simd`) inner loop and writes its
// result through memory: full-size intermediates to `scratch`, per-row statistics to a
// vector after them. Plain C++, vectorised by the compiler for the including unit's ISA
// (anonymous namespace: one copy per ISA), so that against the fused code only the number
// of passes differs. The exp pass uses the same polynomial exp as the fused softmax.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "rowwise_kernels.hpp"
#include "rowwise_ops.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

// out[r] = scale * sum_c a[r][c] (or a^2): the sum, mean and variance passes. Two levels, as
// eager frameworks' cascade sums do: vectorised partial sums of 256 terms, added up per row,
// so no lane's chain is longer than 256 / W + cols / 256 adds.
void row_sums(const float* a, float* out, std::int64_t rows, std::int64_t cols, bool square,
              float scale, int threads) {
  constexpr std::int64_t kChunk = 256;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* ar = a + r * cols;
    float s = 0.0f;
    for (std::int64_t c0 = 0; c0 < cols; c0 += kChunk) {
      const std::int64_t end = std::min(cols, c0 + kChunk);
      float part = 0.0f;
      if (square) {
#pragma omp simd reduction(+ : part)
        for (std::int64_t c = c0; c < end; ++c) part += ar[c] * ar[c];
      } else {
#pragma omp simd reduction(+ : part)
        for (std::int64_t c = c0; c < end; ++c) part += ar[c];
      }
      s += part;
    }
    out[r] = s * scale;
  }
}

// scratch: t (rows * cols), row maxima (rows), row sums (rows).
void softmax_passes(const float* x, float* y, float* scratch, std::int64_t rows, std::int64_t cols,
                    int threads) {
  float* t = scratch;
  float* mx = t + rows * cols;
  float* sum = mx + rows;
  const std::int64_t n = rows * cols;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    float m = -std::numeric_limits<float>::infinity();
    const float* xr = x + r * cols;
#pragma omp simd reduction(max : m)
    for (std::int64_t c = 0; c < cols; ++c) m = xr[c] > m ? xr[c] : m;
    mx[r] = m;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float m = mx[r];
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) t[r * cols + c] = x[r * cols + c] - m;
  }
#pragma omp parallel for simd num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) t[i] = exp_approx<F32x1>(t[i]);
  row_sums(t, sum, rows, cols, false, 1.0f, threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float s = sum[r];
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) y[r * cols + c] = t[r * cols + c] / s;
  }
}

// scratch: d (rows * cols), row means (rows), row 1/std (rows).
void layernorm_passes(const float* x, const float* gamma, const float* beta, float* y,
                      float* scratch, std::int64_t rows, std::int64_t cols, float eps,
                      int threads) {
  float* d = scratch;
  float* mean = d + rows * cols;
  float* rstd = mean + rows;
  const float inv_cols = 1.0f / static_cast<float>(cols);
  row_sums(x, mean, rows, cols, false, inv_cols, threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float m = mean[r];
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) d[r * cols + c] = x[r * cols + c] - m;
  }
  row_sums(d, rstd, rows, cols, true, inv_cols, threads);
  // The per-row rsqrt is a tiny kernel of its own in a framework; here it joins the next pass.
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float s = 1.0f / std::sqrt(rstd[r] + eps);
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) d[r * cols + c] *= s;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) y[r * cols + c] = d[r * cols + c] * gamma[c] + beta[c];
  }
}

// scratch: s (rows * cols), row 1/rms (rows).
void rmsnorm_passes(const float* x, const float* gamma, float* y, float* scratch, std::int64_t rows,
                    std::int64_t cols, float eps, int threads) {
  float* s = scratch;
  float* ms = s + rows * cols;
  const std::int64_t n = rows * cols;
#pragma omp parallel for simd num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) s[i] = x[i] * x[i];
  row_sums(s, ms, rows, cols, false, 1.0f / static_cast<float>(cols), threads);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float rs = 1.0f / std::sqrt(ms[r] + eps);
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) s[r * cols + c] = x[r * cols + c] * rs;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
#pragma omp simd
    for (std::int64_t c = 0; c < cols; ++c) y[r * cols + c] = s[r * cols + c] * gamma[c];
  }
}

// One pass per op: x -> y first, then y in place.
void eltwise_chain_passes(const float* x, float* y, std::int64_t n, int L, int threads) {
  for (int op = 0; op < L; ++op) {
    const float* src = op == 0 ? x : y;
    switch (op % 4) {
      case 0:
#pragma omp parallel for simd num_threads(threads) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) y[i] = src[i] * kChainScale0 + kChainShift0;
        break;
      case 1:
#pragma omp parallel for simd num_threads(threads) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) y[i] = src[i] > 0.0f ? src[i] : 0.0f;
        break;
      case 2:
#pragma omp parallel for simd num_threads(threads) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) y[i] = src[i] * kChainScale2;
        break;
      default:
#pragma omp parallel for simd num_threads(threads) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) y[i] = src[i] * kChainScale3 + kChainShift3;
        break;
    }
  }
}

constexpr detail::RowwiseKernels unfused_table() {
  return {&softmax_passes, &layernorm_passes, &rmsnorm_passes, &eltwise_chain_passes};
}

}  // namespace
}  // namespace ridgeline::ops
