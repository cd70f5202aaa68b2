#pragma once
// The fused ops, written once over a SIMD traits type S (rowwise_simd.hpp). Each row is read
// from memory once and written once; every later sweep over it finds it in L1 (a 4096-float
// row is 16 KiB) or L2. OpenMP splits rows between threads. Included only by the
// ISA-specific translation units (anonymous namespace: one copy per ISA).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rowwise_kernels.hpp"
#include "rowwise_ops.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

// How the row functions read and write their element type T, in S's vectors: f32 as it is;
// rowwise_bf16_body.hpp has bf16 (widened on load, rounded on store).
template <typename S>
struct F32Elems {
  using T = float;
  using V = typename S::V;
  static V load(const float* p) { return S::load(p); }
  static V load_tail(const float* p, int count, float fill) { return S::load_tail(p, count, fill); }
  static void store(float* p, V v) { S::store(p, v); }
  static void store_tail(float* p, int count, V v) { S::store_tail(p, count, v); }
  static void stream(float* p, V v) { S::stream(p, v); }
};

// E with its full vectors written by non-temporal stores (the tail as E stores it). For an
// output larger than the cache (streams_output) a plain store first reads each line of
// y for ownership, so y's bytes would cross the memory bus twice; a streamed line goes once.
template <typename E>
struct Streamed : E {
  static void store(typename E::T* p, typename E::V v) { E::stream(p, v); }
};

// Whether row p starts on a vector boundary, so that its full vectors can be streamed.
template <typename S, typename T>
bool vector_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % (S::kLanes * sizeof(T)) == 0;
}

// The next row, fetched a cache line per step during the current row's sweeps in cache: x to
// read and y to write (prefetchw, so the read-for-ownership of y's lines is under way too;
// none when y is streamed, which needs no ownership).
// Without it the memory system idles while a row is finished from L1 (docs/rowwise-ops.md
// has the figures). Starts are aligned down to a line and one line more is fetched, so both rows
// are covered whatever their alignment; prefetches past the end of a buffer do not fault.
class Ahead {
 public:
  Ahead() = default;
  Ahead(const void* x, void* y, std::int64_t bytes)
      : x_(line_of(x)), y_(y ? line_of(y) : nullptr), lines_(bytes / kLine + 2) {}
  void step() {
    if (done_ >= lines_) return;
    __builtin_prefetch(x_ + done_ * kLine, 0, 3);
    if (y_) __builtin_prefetch(y_ + done_ * kLine, 1, 3);
    ++done_;
  }

 private:
  static constexpr std::int64_t kLine = 64;
  static const char* line_of(const void* p) {
    return reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{63});
  }
  const char* x_ = nullptr;
  const char* y_ = nullptr;
  std::int64_t lines_ = 0, done_ = 0;
};

// Row r + 1's Ahead (x only when y is streamed), or none after the last row.
template <typename T>
Ahead ahead_of(const T* x, T* y, std::int64_t r, std::int64_t rows, std::int64_t cols,
               bool streamed) {
  if (r + 1 >= rows) return {};
  return {x + (r + 1) * cols, streamed ? nullptr : y + (r + 1) * cols,
          cols * static_cast<std::int64_t>(sizeof(T))};
}

// Four independent accumulators hide the add/max latency behind the loads. Sums go two
// levels deep: the four take kBlock steps, then fold into a running total, so no lane adds
// more than kBlock + cols / (4 * kBlock * W) terms (the one-lane build's softmax sum over
// 4099 columns was off by 3.5e-6 as one chain per accumulator, 3e-7 like this).
inline constexpr int kAcc = 4;
inline constexpr int kBlock = 16;

// acc = f(acc, v) over a row: full vectors four at a time, then single vectors, then a tail
// with `fill` in the lanes past the end (a value f leaves acc unchanged with); partial results
// are merged with `merge` (f itself may not be associative: fma(v, v, acc)). E loads x.
template <typename S, typename E = F32Elems<S>, typename F, typename M>
typename S::V row_reduce(const typename E::T* x, std::int64_t cols, float init, float fill, F f,
                         M merge) {
  using V = typename S::V;
  constexpr int W = S::kLanes;
  constexpr std::int64_t kStep = kAcc * W;
  V total = S::set1(init);
  std::int64_t c = 0;
  while (c + kStep <= cols) {
    V acc[kAcc];
    for (V& a : acc) a = S::set1(init);
    const std::int64_t end = std::min(c + kBlock * kStep, cols - (cols - c) % kStep);
    for (; c < end; c += kStep)
      for (int k = 0; k < kAcc; ++k) acc[k] = f(acc[k], E::load(x + c + k * W));
    total = merge(total, merge(merge(acc[0], acc[1]), merge(acc[2], acc[3])));
  }
  for (; c + W <= cols; c += W) total = f(total, E::load(x + c));
  if (c < cols) total = f(total, E::load_tail(x + c, static_cast<int>(cols - c), fill));
  return total;
}

// y[c] = g(x[c], c) over a row, with the same full / tail split; In loads x, Out stores y.
template <typename S, typename In = F32Elems<S>, typename Out = In, typename G>
void row_map(const typename In::T* x, typename Out::T* y, std::int64_t cols, G g) {
  constexpr int W = S::kLanes;
  std::int64_t c = 0;
  for (; c + W <= cols; c += W) Out::store(y + c, g(In::load(x + c), c));
  if (c < cols) {
    const int rest = static_cast<int>(cols - c);
    Out::store_tail(y + c, rest, g(In::load_tail(x + c, rest, 0.0f), c));
  }
}

// row_map into y with Out's stores, or streamed ones.
template <typename S, typename In, typename Out, typename G>
void row_write(const typename In::T* x, typename Out::T* y, std::int64_t cols, bool stream, G g) {
  if (stream)
    row_map<S, In, Streamed<Out>>(x, y, cols, g);
  else
    row_map<S, In, Out>(x, y, cols, g);
}

// Loads gamma/beta at the same column as x (the tail lanes are masked off on store).
template <typename S>
typename S::V load_at(const float* p, std::int64_t c, std::int64_t cols) {
  const std::int64_t rest = cols - c;
  return rest >= S::kLanes ? S::load(p + c) : S::load_tail(p + c, static_cast<int>(rest), 0.0f);
}

// exp(x - max) goes into `work` (f32, cols floats: y itself when T is f32), whose row then
// stays in cache for the sum and the scaling into y. The same f32 arithmetic, in the same
// order, whatever T is: a bf16 row gives the f32 result on the widened row, rounded.
template <typename S, typename E = F32Elems<S>>
void softmax_row(const typename E::T* xr, float* work, typename E::T* yr, std::int64_t cols,
                 Ahead ahead = {}) {
  using V = typename S::V;
  using F32 = F32Elems<S>;
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const auto vmax = [](V a, V b) { return S::max(a, b); };
  const float mx = S::reduce_max(row_reduce<S, E>(xr, cols, kNegInf, kNegInf, vmax, vmax));
  const V vmx = S::set1(mx);
  row_map<S, E, F32>(xr, work, cols, [&](V v, std::int64_t) {
    ahead.step();
    return exp_approx<S>(S::sub(v, vmx));
  });
  const auto add = [](V a, V b) { return S::add(a, b); };
  const float total = S::reduce_add(row_reduce<S>(work, cols, 0.0f, 0.0f, add, add));
  const V inv = S::set1(1.0f / total);
  row_map<S, F32, E>(work, yr, cols, [&](V e, std::int64_t) { return S::mul(e, inv); });
}

// Two sweeps for the moments (mean, then the centred sum of squares: no cancellation when
// |mean| >> std), a third to write y; all three but the first hit the row in cache.
template <typename S, typename E = F32Elems<S>>
void layernorm_row(const typename E::T* xr, const float* gamma, const float* beta,
                   typename E::T* yr, std::int64_t cols, float eps, bool stream = false,
                   Ahead ahead = {}) {
  using V = typename S::V;
  const float inv_cols = 1.0f / static_cast<float>(cols);
  const auto add = [](V a, V b) { return S::add(a, b); };
  const float mean = S::reduce_add(row_reduce<S, E>(xr, cols, 0.0f, 0.0f, add, add)) * inv_cols;
  const V vmean = S::set1(mean);
  // Tail lanes hold mean, so they add (mean - mean)^2 = 0.
  const auto centred_square = [&](V a, V b) {
    const V d = S::sub(b, vmean);
    return S::fma(d, d, a);
  };
  const float ss = S::reduce_add(row_reduce<S, E>(xr, cols, 0.0f, mean, centred_square, add));
  const V rstd = S::set1(1.0f / std::sqrt(ss * inv_cols + eps));
  // The next row is fetched during the write sweep: the centred sweep runs four vectors a
  // step and would issue the prefetches in a burst.
  row_write<S, E, E>(xr, yr, cols, stream, [&](V v, std::int64_t c) {
    ahead.step();
    const V z = S::mul(S::sub(v, vmean), rstd);
    return S::fma(z, load_at<S>(gamma, c, cols), load_at<S>(beta, c, cols));
  });
}

template <typename S, typename E = F32Elems<S>>
void rmsnorm_row(const typename E::T* xr, const float* gamma, typename E::T* yr, std::int64_t cols,
                 float eps, bool stream = false, Ahead ahead = {}) {
  using V = typename S::V;
  const float inv_cols = 1.0f / static_cast<float>(cols);
  const auto add = [](V a, V b) { return S::add(a, b); };
  const auto square = [](V a, V b) { return S::fma(b, b, a); };
  const float ss = S::reduce_add(row_reduce<S, E>(xr, cols, 0.0f, 0.0f, square, add));
  const V rstd = S::set1(1.0f / std::sqrt(ss * inv_cols + eps));
  row_write<S, E, E>(xr, yr, cols, stream, [&](V v, std::int64_t c) {
    ahead.step();
    return S::mul(S::mul(v, rstd), load_at<S>(gamma, c, cols));
  });
}

inline float* line_aligned(float* p) {
  return reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(p) + 63) & ~std::uintptr_t{63});
}

// OpenMP over rows, each row straight from x into y, the next one fetched meanwhile. With
// `stream`, y is written by non-temporal stores, each row whose start is aligned to the
// vector (the others are stored as usual), and each thread's are fenced before the region
// ends. row(r, work, streamed, ahead) does row r; `work` is a per-thread f32 row of cols
// floats when work_row asks for one (bf16 softmax's exp values).
template <typename S, typename T, typename Row>
void fused_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, bool stream, bool work_row,
                int threads, Row row) {
#pragma omp parallel num_threads(threads)
  {
    // Aligned to a cache line: the sweeps over it would otherwise split a line every vector.
    std::vector<float> buf(work_row ? static_cast<std::size_t>(cols) + 16 : 0);
    float* work = work_row ? line_aligned(buf.data()) : nullptr;
#pragma omp for schedule(static) nowait
    for (std::int64_t r = 0; r < rows; ++r)
      row(r, work, stream && vector_aligned<S>(y + r * cols),
          ahead_of(x, y, r, rows, cols, stream));
    if (stream) S::fence();
  }
}

// Whether layernorm and rmsnorm stream y (streams_output on x and y). Softmax does not: its
// last sweep, the scaling, has too little arithmetic to hide the streamed writes behind (they
// drain at the memory's pace), while plain stores' ownership reads overlap the exp sweep.
// Measured on Zen 5 (32768 x 4096 f32) streaming took softmax from 17.9 to 16.9 GFLOP/s on
// 1 thread and 34.0 to 26.9 on 2, and layernorm from 19.9 to 24.4 and 40.7 to 47.6.
template <typename T>
bool stream_rows(std::int64_t rows, std::int64_t cols) {
  return streams_output(rows_in_out_bytes(rows, cols, sizeof(T)));
}

template <typename S>
void softmax_rows(const float* x, float* y, float*, std::int64_t rows, std::int64_t cols,
                  int threads) {
  fused_rows<S>(x, y, rows, cols, false, false, threads,
                [&](std::int64_t r, float*, bool, Ahead ahead) {
                  float* yr = y + r * cols;
                  softmax_row<S>(x + r * cols, yr, yr, cols, ahead);
                });
}

template <typename S>
void layernorm_rows(const float* x, const float* gamma, const float* beta, float* y, float*,
                    std::int64_t rows, std::int64_t cols, float eps, int threads) {
  fused_rows<S>(x, y, rows, cols, stream_rows<float>(rows, cols), false, threads,
                [&](std::int64_t r, float*, bool streamed, Ahead ahead) {
                  layernorm_row<S>(x + r * cols, gamma, beta, y + r * cols, cols, eps, streamed,
                                   ahead);
                });
}

template <typename S>
void rmsnorm_rows(const float* x, const float* gamma, float* y, float*, std::int64_t rows,
                  std::int64_t cols, float eps, int threads) {
  fused_rows<S>(x, y, rows, cols, stream_rows<float>(rows, cols), false, threads,
                [&](std::int64_t r, float*, bool streamed, Ahead ahead) {
                  rmsnorm_row<S>(x + r * cols, gamma, y + r * cols, cols, eps, streamed, ahead);
                });
}

// The chain on K registers in lockstep (K independent dependency chains keep the FMA pipes
// busy when L is long): whole cycles of the four ops, then the first L % 4 of them.
template <typename S, int K>
void chain(typename S::V (&v)[K], int L) {
  using V = typename S::V;
  const V s0 = S::set1(kChainScale0), h0 = S::set1(kChainShift0), zero = S::set1(0.0f);
  const V s2 = S::set1(kChainScale2), s3 = S::set1(kChainScale3), h3 = S::set1(kChainShift3);
  int i = 0;
  for (; i + 4 <= L; i += 4)
    for (int k = 0; k < K; ++k)
      v[k] = S::fma(S::mul(S::max(S::fma(v[k], s0, h0), zero), s2), s3, h3);
  const int rest = L - i;
  for (int k = 0; k < K; ++k) {
    if (rest > 0) v[k] = S::fma(v[k], s0, h0);
    if (rest > 1) v[k] = S::max(v[k], zero);
    if (rest > 2) v[k] = S::mul(v[k], s2);
  }
}

// Blocks of 8 registers go through the chain together; threads take chunks of 16 Ki elements.
// load(p, count) and store(p, count, v) move `count` (<= W) lanes of the element type T: f32
// here, bf16 in rowwise_bf16_body.hpp.
template <typename S, typename T, typename Load, typename Store>
void eltwise_chain_blocks(const T* x, T* y, std::int64_t n, int L, int threads, Load load,
                          Store store) {
  using V = typename S::V;
  constexpr int W = S::kLanes;
  constexpr int kRegs = 8;
  constexpr std::int64_t kChunk = 16384;
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t ch = 0; ch < chunks; ++ch) {
    const std::int64_t end = std::min(n, (ch + 1) * kChunk);
    std::int64_t i = ch * kChunk;
    for (; i + kRegs * W <= end; i += kRegs * W) {
      V v[kRegs];
      for (int k = 0; k < kRegs; ++k) v[k] = load(x + i + k * W, W);
      chain<S>(v, L);
      for (int k = 0; k < kRegs; ++k) store(y + i + k * W, W, v[k]);
    }
    for (; i + W <= end; i += W) {
      V v[1] = {load(x + i, W)};
      chain<S>(v, L);
      store(y + i, W, v[0]);
    }
    if (i < end) {
      const int rest = static_cast<int>(end - i);
      V v[1] = {load(x + i, rest)};
      chain<S>(v, L);
      store(y + i, rest, v[0]);
    }
  }
}

template <typename S>
void eltwise_chain_all(const float* x, float* y, std::int64_t n, int L, int threads) {
  constexpr int W = S::kLanes;
  eltwise_chain_blocks<S>(
      x, y, n, L, threads,
      [](const float* p, int count) {
        return count == W ? S::load(p) : S::load_tail(p, count, 0.0f);
      },
      [](float* p, int count, typename S::V v) {
        if (count == W)
          S::store(p, v);
        else
          S::store_tail(p, count, v);
      });
}

template <typename S>
constexpr detail::RowwiseKernels fused_table() {
  return {&softmax_rows<S>, &layernorm_rows<S>, &rmsnorm_rows<S>, &eltwise_chain_all<S>};
}

template <typename S>
void exp_all(const float* x, float* y, std::int64_t n) {
  row_map<S>(x, y, n, [](typename S::V v, std::int64_t) { return exp_approx<S>(v); });
}

}  // namespace
}  // namespace ridgeline::ops
