#pragma once
// The unfused ops: what an eager framework runs, one kernel per elementary step. Every pass
// is its own OpenMP parallel loop with a vectorised (`omp simd`) inner loop and writes its
// result through memory: full-size intermediates to `scratch`, per-row statistics to a
// vector after them. Plain C++, vectorised by the compiler for the including unit's ISA
// (anonymous namespace: one copy per ISA), so that against the fused code only the number
// of passes differs. Each pass ends with pass_done(), which laps the kernel's PassClock.
// The exp pass uses the same polynomial exp as the fused softmax, through
// the unit's vector traits (exp_flat).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ridgeline/kernels/pass_clock.hpp"
#include "rowwise_kernels.hpp"
#include "rowwise_ops.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

// How a pass moves its elements. F32IO goes straight to memory: the loops below are plain
// loops over the arrays. The bf16 IO (rowwise_bf16_body.hpp) widens tiles of kTile elements
// into f32 on the stack and narrows each result tile back, so a pass still reads and writes
// every element of bf16 memory once and computes in f32. get/put move one row statistic.
struct F32IO {
  using T = float;
  static constexpr bool kDirect = true;
  static constexpr std::int64_t kTile = 256;  // any: f32 passes are not tiled
  static float get(const float* p) { return *p; }
  static void put(float* p, float v) { *p = v; }
};

// The f32 view of n elements at p: p itself, or a widened copy in buf (kTile floats).
template <typename IO>
const float* tile_in(const typename IO::T* p, float* buf, std::int64_t n) {
  if constexpr (IO::kDirect) {
    return p;
  } else {
    IO::widen(p, buf, n);
    return buf;
  }
}

// Where a pass writes n results for dst: dst itself, or buf, then narrowed by tile_out.
template <typename IO>
float* tile_dst(typename IO::T* dst, float* buf) {
  if constexpr (IO::kDirect)
    return dst;
  else
    return buf;
}
template <typename IO>
void tile_out(const float* buf, typename IO::T* dst, std::int64_t n) {
  if constexpr (!IO::kDirect) IO::narrow(buf, dst, n);
}

// The tiles of a row (or of a flat array): one tile of everything for f32, kTile for bf16.
template <typename IO>
std::int64_t tile_width(std::int64_t n) {
  return IO::kDirect ? n : std::min(n, IO::kTile);
}

// out[r] = scale * sum_c a[r][c] (or a^2): the sum, mean and variance passes. Two levels, as
// eager frameworks' cascade sums do: vectorised partial sums of 256 terms, added up per row,
// so no lane's chain is longer than 256 / W + cols / 256 adds.
template <typename IO, typename T = typename IO::T>
void row_sums(const T* a, T* out, std::int64_t rows, std::int64_t cols, bool square, float scale,
              int threads) {
  constexpr std::int64_t kChunk = 256;
  static_assert(IO::kTile == kChunk);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    float buf[IO::kDirect ? 1 : kChunk];
    float s = 0.0f;
    for (std::int64_t c0 = 0; c0 < cols; c0 += kChunk) {
      const std::int64_t n = std::min(cols - c0, kChunk);
      const float* ar = tile_in<IO>(a + r * cols + c0, buf, n);
      float part = 0.0f;
      if (square) {
#pragma omp simd reduction(+ : part)
        for (std::int64_t c = 0; c < n; ++c) part += ar[c] * ar[c];
      } else {
#pragma omp simd reduction(+ : part)
        for (std::int64_t c = 0; c < n; ++c) part += ar[c];
      }
      s += part;
    }
    IO::put(out + r, s * scale);
  }
}

template <typename IO, typename T = typename IO::T>
void row_maxima(const T* x, T* out, std::int64_t rows, std::int64_t cols, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    float buf[IO::kDirect ? 1 : IO::kTile];
    float m = -std::numeric_limits<float>::infinity();
    for (std::int64_t c0 = 0; c0 < cols; c0 += tile_width<IO>(cols)) {
      const std::int64_t n = std::min(cols - c0, tile_width<IO>(cols));
      const float* xr = tile_in<IO>(x + r * cols + c0, buf, n);
#pragma omp simd reduction(max : m)
      for (std::int64_t c = 0; c < n; ++c) m = xr[c] > m ? xr[c] : m;
    }
    IO::put(out + r, m);
  }
}

// dst[r][c] = f(a[r][c]) with f = row_op(r) (which reads the row's statistics once), and
// with gamma / beta (beta may be null) as f(a, gamma[c], beta[c]). dst may be a.
template <typename IO, typename RowOp, typename T = typename IO::T>
void map_rows(const T* a, std::type_identity_t<const T*> gamma, std::type_identity_t<const T*> beta,
              T* dst, std::int64_t rows, std::int64_t cols, int threads, RowOp row_op) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    float in[IO::kDirect ? 1 : IO::kTile], out[IO::kDirect ? 1 : IO::kTile];
    float g[IO::kDirect ? 1 : IO::kTile], b[IO::kDirect ? 1 : IO::kTile];
    const auto f = row_op(r);
    for (std::int64_t c0 = 0; c0 < cols; c0 += tile_width<IO>(cols)) {
      const std::int64_t n = std::min(cols - c0, tile_width<IO>(cols));
      const float* ar = tile_in<IO>(a + r * cols + c0, in, n);
      float* dr = tile_dst<IO>(dst + r * cols + c0, out);
      if (!gamma) {
#pragma omp simd
        for (std::int64_t c = 0; c < n; ++c) dr[c] = f(ar[c], 0.0f, 0.0f);
      } else if (!beta) {
        const float* gr = tile_in<IO>(gamma + c0, g, n);
#pragma omp simd
        for (std::int64_t c = 0; c < n; ++c) dr[c] = f(ar[c], gr[c], 0.0f);
      } else {
        const float* gr = tile_in<IO>(gamma + c0, g, n);
        const float* br = tile_in<IO>(beta + c0, b, n);
#pragma omp simd
        for (std::int64_t c = 0; c < n; ++c) dr[c] = f(ar[c], gr[c], br[c]);
      }
      tile_out<IO>(out, dst + r * cols + c0, n);
    }
  }
}

// dst[i] = f(a[i]) over n elements, one flat parallel pass. dst may be a.
template <typename IO, typename T = typename IO::T, typename F>
void map_flat(const T* a, T* dst, std::int64_t n, int threads, F f) {
  if constexpr (IO::kDirect) {
#pragma omp parallel for simd num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < n; ++i) dst[i] = f(a[i]);
  } else {
    const std::int64_t tiles = (n + IO::kTile - 1) / IO::kTile;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t t = 0; t < tiles; ++t) {
      float in[IO::kTile], out[IO::kTile];
      const std::int64_t i0 = t * IO::kTile, m = std::min(n - i0, IO::kTile);
      const float* at = tile_in<IO>(a + i0, in, m);
#pragma omp simd
      for (std::int64_t i = 0; i < m; ++i) out[i] = f(at[i]);
      tile_out<IO>(out, dst + i0, m);
    }
  }
}

// dst[i] = exp(a[i]) over n elements, one flat parallel pass through the unit's vector exp
// (S: its traits; the same polynomial as the fused softmax), as eager frameworks' exp kernels
// are vectorised by hand (SLEEF in PyTorch, oneDNN's eltwise). Left to the vectoriser, the
// one-lane exp_approx stayed scalar on AVX2: the unfused softmax took 443 ms at 32768 x 4096
// on the Zen 4 VM against 157 ms for the AVX-512 build, whose other passes it matched.
template <typename IO, typename S, typename T = typename IO::T>
void exp_flat(const T* a, T* dst, std::int64_t n, int threads) {
  constexpr std::int64_t kTile = IO::kTile;
  const std::int64_t tiles = (n + kTile - 1) / kTile;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t t = 0; t < tiles; ++t) {
    float in[IO::kDirect ? 1 : kTile], out[IO::kDirect ? 1 : kTile];
    const std::int64_t i0 = t * kTile, m = std::min(n - i0, kTile);
    const float* at = tile_in<IO>(a + i0, in, m);
    float* dt = tile_dst<IO>(dst + i0, out);
    std::int64_t i = 0;
    for (; i + S::kLanes <= m; i += S::kLanes) S::store(dt + i, exp_approx<S>(S::load(at + i)));
    if (i < m) {
      const int rest = static_cast<int>(m - i);
      S::store_tail(dt + i, rest, exp_approx<S>(S::load_tail(at + i, rest, 0.0f)));
    }
    tile_out<IO>(out, dst + i0, m);
  }
}

// scratch: t (rows * cols), row maxima (rows), row sums (rows).
template <typename IO, typename S, typename T = typename IO::T>
void softmax_passes(const T* x, T* y, T* scratch, std::int64_t rows, std::int64_t cols,
                    int threads) {
  T* t = scratch;
  T* mx = t + rows * cols;
  T* sum = mx + rows;
  row_maxima<IO>(x, mx, rows, cols, threads);
  pass_done();
  map_rows<IO>(x, nullptr, nullptr, t, rows, cols, threads, [&](std::int64_t r) {
    const float m = IO::get(mx + r);
    return [m](float v, float, float) { return v - m; };
  });
  pass_done();
  exp_flat<IO, S>(t, t, rows * cols, threads);
  pass_done();
  row_sums<IO>(t, sum, rows, cols, false, 1.0f, threads);
  pass_done();
  map_rows<IO>(t, nullptr, nullptr, y, rows, cols, threads, [&](std::int64_t r) {
    const float s = IO::get(sum + r);
    return [s](float v, float, float) { return v / s; };
  });
  pass_done();
}

// scratch: d (rows * cols), row means (rows), row variances then 1/std (rows).
template <typename IO, typename T = typename IO::T>
void layernorm_passes(const T* x, const T* gamma, const T* beta, T* y, T* scratch,
                      std::int64_t rows, std::int64_t cols, float eps, int threads) {
  T* d = scratch;
  T* mean = d + rows * cols;
  T* var = mean + rows;
  const float inv_cols = 1.0f / static_cast<float>(cols);
  row_sums<IO>(x, mean, rows, cols, false, inv_cols, threads);
  pass_done();
  map_rows<IO>(x, nullptr, nullptr, d, rows, cols, threads, [&](std::int64_t r) {
    const float m = IO::get(mean + r);
    return [m](float v, float, float) { return v - m; };
  });
  pass_done();
  row_sums<IO>(d, var, rows, cols, true, inv_cols, threads);
  pass_done();
  // The per-row rsqrt is a tiny kernel of its own in a framework; here it joins the next pass.
  map_rows<IO>(d, nullptr, nullptr, d, rows, cols, threads, [&](std::int64_t r) {
    const float s = 1.0f / std::sqrt(IO::get(var + r) + eps);
    return [s](float v, float, float) { return v * s; };
  });
  pass_done();
  map_rows<IO>(d, gamma, beta, y, rows, cols, threads,
               [](std::int64_t) { return [](float v, float g, float b) { return v * g + b; }; });
  pass_done();
}

// scratch: s (rows * cols), row mean squares (rows).
template <typename IO, typename T = typename IO::T>
void rmsnorm_passes(const T* x, const T* gamma, T* y, T* scratch, std::int64_t rows,
                    std::int64_t cols, float eps, int threads) {
  T* s = scratch;
  T* ms = s + rows * cols;
  map_flat<IO>(x, s, rows * cols, threads, [](float v) { return v * v; });
  pass_done();
  row_sums<IO>(s, ms, rows, cols, false, 1.0f / static_cast<float>(cols), threads);
  pass_done();
  map_rows<IO>(x, nullptr, nullptr, s, rows, cols, threads, [&](std::int64_t r) {
    const float rs = 1.0f / std::sqrt(IO::get(ms + r) + eps);
    return [rs](float v, float, float) { return v * rs; };
  });
  pass_done();
  map_rows<IO>(s, gamma, nullptr, y, rows, cols, threads,
               [](std::int64_t) { return [](float v, float g, float) { return v * g; }; });
  pass_done();
}

// One pass per op: x -> y first, then y in place.
template <typename IO, typename T = typename IO::T>
void eltwise_chain_passes(const T* x, T* y, std::int64_t n, int L, int threads) {
  for (int op = 0; op < L; ++op) {
    const T* src = op == 0 ? x : y;
    switch (op % 4) {
      case 0:
        map_flat<IO>(src, y, n, threads, [](float v) { return v * kChainScale0 + kChainShift0; });
        break;
      case 1:
        map_flat<IO>(src, y, n, threads, [](float v) { return v > 0.0f ? v : 0.0f; });
        break;
      case 2:
        map_flat<IO>(src, y, n, threads, [](float v) { return v * kChainScale2; });
        break;
      default:
        map_flat<IO>(src, y, n, threads, [](float v) { return v * kChainScale3 + kChainShift3; });
        break;
    }
    pass_done();
  }
}

// S: the unit's vector traits, for the exp pass.
template <typename IO, typename S>
constexpr detail::RowwiseTable<typename IO::T> unfused_table() {
  return {&softmax_passes<IO, S>, &layernorm_passes<IO>, &rmsnorm_passes<IO>,
          &eltwise_chain_passes<IO>};
}

}  // namespace
}  // namespace ridgeline::ops
