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

#include "rowwise_chain_body.hpp"
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

// The next rows, fetched a cache line per step during the current ones' sweeps in cache: x to
// read and y to write (prefetchw, so the read-for-ownership of y's lines is under way too;
// none when y is streamed, which needs no ownership).
// Without it the memory system idles while a row is finished from L1 (docs/rowwise-ops.md
// has the figures). Starts are aligned down to a line and one line more is fetched, so the
// rows are covered whatever their alignment; prefetches past the end of a buffer do not fault.
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

// The Ahead of `count` rows from row `first` (x only when y is streamed); none when count <= 0.
template <typename T>
Ahead ahead_rows(const T* x, T* y, std::int64_t first, std::int64_t count, std::int64_t cols,
                 bool streamed) {
  if (count <= 0) return {};
  return {x + first * cols, streamed ? nullptr : y + first * cols,
          count * cols * static_cast<std::int64_t>(sizeof(T))};
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

// exp(x - max) goes into `work` (f32, cols floats: y itself when T is f32) and into the
// row's sum in the same sweep; the row then stays in cache for the scaling into y. The same
// f32 arithmetic, in the same order, whatever T is: a bf16 row gives the f32 result on the
// widened row, rounded.
template <typename S, typename E = F32Elems<S>>
void softmax_row(const typename E::T* xr, float* work, typename E::T* yr, std::int64_t cols,
                 Ahead ahead = {}, bool stream = false) {
  using V = typename S::V;
  using F32 = F32Elems<S>;
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const auto vmax = [](V a, V b) { return S::max(a, b); };
  const float mx = S::reduce_max(row_reduce<S, E>(xr, cols, kNegInf, kNegInf, vmax, vmax));
  const V vmx = S::set1(mx);
  // exp into work and into the sum in one sweep. One accumulator (four exps in flight spill
  // AVX2's 16 registers), folded into `sum` every kBlock vectors, so that no lane adds more
  // than kBlock + cols / (kBlock * W) terms in a chain. Written as one loop with a counter:
  // as two nested loops, or through a helper taking the exp as a lambda, the AVX2 build took
  // 73 ms instead of 63 at 32768 x 4096 on the Zen 4 VM. The tail's missing lanes load -inf,
  // whose exp is 0.
  constexpr int W = S::kLanes;
  V sum = S::set1(0.0f);
  std::int64_t c = 0;
  V acc = S::set1(0.0f);
  for (int k = 0; c + W <= cols; c += W) {
    ahead.step();
    const V e = exp_nonpositive<S>(S::sub(E::load(xr + c), vmx));
    F32::store(work + c, e);
    acc = S::add(acc, e);
    if (++k == kBlock) {
      sum = S::add(sum, acc);
      acc = S::set1(0.0f);
      k = 0;
    }
  }
  sum = S::add(sum, acc);
  if (c < cols) {
    ahead.step();
    const int rest = static_cast<int>(cols - c);
    const V e = exp_nonpositive<S>(S::sub(E::load_tail(xr + c, rest, kNegInf), vmx));
    F32::store_tail(work + c, rest, e);
    sum = S::add(sum, e);
  }
  const float total = S::reduce_add(sum);
  const V inv = S::set1(1.0f / total);
  row_write<S, F32, E>(work, yr, cols, stream && vector_aligned<S>(yr),
                       [&](V e, std::int64_t) { return S::mul(e, inv); });
}

// The norms go in groups of kNormGroup rows: each row's moments from its own sweeps, then the
// group's write sweep kNormBlock columns at a time, row after row, so that each block of gamma
// and beta is loaded from L1 by every row of the group. Row by row, x's row, gamma, beta
// (16 KiB each at 4096 f32 columns) and the next row overflowed Zen 5's 48 KiB L1 during the
// write sweep; grouped, layernorm took 0.8x the time on 1 and 2 threads (docs/rowwise-ops.md).
// bf16 rows stay one at a time: grouped, its norms ran 0.8-0.95x as fast (a bf16 row is half
// the bytes, and its write sweep widens x and rounds y, so L1 is not what holds it back).
template <typename T>
inline constexpr std::int64_t kNormGroup = sizeof(T) == 4 ? 4 : 1;
// 256 bytes of y per row and block: four whole lines (a multiple of every S::kLanes).
template <typename T>
inline constexpr std::int64_t kNormBlock = 256 / sizeof(T);

// Writes y for the `count` rows from x (y) block by block: y[i][c] = g(i, x[i][c], c). Full
// vectors are streamed in the rows that start on a vector boundary when `stream` asks for it.
// The next rows are fetched during this sweep: the moments' sweeps run four vectors a step and
// would issue the prefetches in a burst.
template <typename S, typename E, typename G>
void norm_write(const typename E::T* x, typename E::T* y, std::int64_t count, std::int64_t cols,
                bool stream, Ahead& ahead, G g) {
  using V = typename S::V;
  // One row has no one to share gamma and beta with: it goes in one sweep.
  const std::int64_t step = count > 1 ? kNormBlock<typename E::T> : cols;
  for (std::int64_t b = 0; b < cols; b += step) {
    const std::int64_t n = std::min(step, cols - b);
    for (std::int64_t i = 0; i < count; ++i) {
      typename E::T* yr = y + i * cols;
      row_write<S, E, E>(x + i * cols + b, yr + b, n, stream && vector_aligned<S>(yr),
                         [&](V v, std::int64_t c) {
                           ahead.step();
                           return g(i, v, b + c);
                         });
    }
  }
}

// Two sweeps for the moments (mean, then the centred sum of squares: no cancellation when
// |mean| >> std), both but the first on the row in cache; mean and 1 / std, broadcast.
template <typename S, typename E>
void layernorm_moments(const typename E::T* xr, std::int64_t cols, float eps, typename S::V& mean,
                       typename S::V& rstd) {
  using V = typename S::V;
  const float inv_cols = 1.0f / static_cast<float>(cols);
  const auto add = [](V a, V b) { return S::add(a, b); };
  const float m = S::reduce_add(row_reduce<S, E>(xr, cols, 0.0f, 0.0f, add, add)) * inv_cols;
  mean = S::set1(m);
  // Tail lanes hold the mean, so they add (mean - mean)^2 = 0.
  const auto centred_square = [&](V a, V b) {
    const V d = S::sub(b, mean);
    return S::fma(d, d, a);
  };
  const float ss = S::reduce_add(row_reduce<S, E>(xr, cols, 0.0f, m, centred_square, add));
  rstd = S::set1(1.0f / std::sqrt(ss * inv_cols + eps));
}

// Rows [0, count) of x into y: (x - mean) * rstd * gamma + beta.
template <typename S, typename E = F32Elems<S>>
void layernorm_group(const typename E::T* x, const float* gamma, const float* beta,
                     typename E::T* y, std::int64_t count, std::int64_t cols, float eps,
                     bool stream, Ahead ahead) {
  using V = typename S::V;
  V mean[kNormGroup<typename E::T>], rstd[kNormGroup<typename E::T>];
  for (std::int64_t i = 0; i < count; ++i)
    layernorm_moments<S, E>(x + i * cols, cols, eps, mean[i], rstd[i]);
  norm_write<S, E>(x, y, count, cols, stream, ahead, [&](std::int64_t i, V v, std::int64_t c) {
    const V z = S::mul(S::sub(v, mean[i]), rstd[i]);
    return S::fma(z, load_at<S>(gamma, c, cols), load_at<S>(beta, c, cols));
  });
}

// Rows [0, count) of x into y: x * rstd * gamma, rstd from the row's mean square.
template <typename S, typename E = F32Elems<S>>
void rmsnorm_group(const typename E::T* x, const float* gamma, typename E::T* y, std::int64_t count,
                   std::int64_t cols, float eps, bool stream, Ahead ahead) {
  using V = typename S::V;
  const float inv_cols = 1.0f / static_cast<float>(cols);
  const auto add = [](V a, V b) { return S::add(a, b); };
  const auto square = [](V a, V b) { return S::fma(b, b, a); };
  V rstd[kNormGroup<typename E::T>];
  for (std::int64_t i = 0; i < count; ++i) {
    const float ss = S::reduce_add(row_reduce<S, E>(x + i * cols, cols, 0.0f, 0.0f, square, add));
    rstd[i] = S::set1(1.0f / std::sqrt(ss * inv_cols + eps));
  }
  norm_write<S, E>(x, y, count, cols, stream, ahead, [&](std::int64_t i, V v, std::int64_t c) {
    return S::mul(S::mul(v, rstd[i]), load_at<S>(gamma, c, cols));
  });
}

inline float* line_aligned(float* p) {
  return reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(p) + 63) & ~std::uintptr_t{63});
}

// OpenMP over groups of `group` rows, each group straight from x into y, the next one fetched
// meanwhile (its Ahead: x only when y is streamed). do_rows(first, count, work, ahead) does
// rows [first, first + count); `work` is a per-thread f32 row of cols floats when work_row asks
// for one (bf16 softmax's exp values). With `stream` (y written by non-temporal stores) each
// thread's stores are fenced before the region ends.
template <typename S, typename T, typename Rows>
void fused_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, std::int64_t group,
                bool stream, bool work_row, int threads, Rows do_rows) {
  const std::int64_t groups = (rows + group - 1) / group;
#pragma omp parallel num_threads(threads)
  {
    // Aligned to a cache line: the sweeps over it would otherwise split a line every vector.
    std::vector<float> buf(work_row ? static_cast<std::size_t>(cols) + 16 : 0);
    float* work = work_row ? line_aligned(buf.data()) : nullptr;
#pragma omp for schedule(static) nowait
    for (std::int64_t g = 0; g < groups; ++g) {
      const std::int64_t first = g * group, count = std::min(group, rows - first);
      do_rows(first, count, work,
              ahead_rows(x, y, first + count, std::min(group, rows - first - count), cols, stream));
    }
    if (stream) S::fence();
  }
}

// Whether the fused ops stream y (streams_output on x and y; softmax also asks
// softmax_streams_y). Measured on Zen 5 (32768 x 4096 f32, AVX-512) streaming took layernorm
// from 19.9 to 24.4 GFLOP/s on 1 thread and 40.7 to 47.6 on 2, softmax from 17.9 to 16.9 and
// 34.0 to 26.9: its last sweep, the scaling, has little arithmetic to hide the streamed
// writes behind. On the Zen 4 VM softmax gained from it on both ISAs (rowwise_ops.hpp).
template <typename T>
bool stream_rows(std::int64_t rows, std::int64_t cols) {
  return streams_output(rows_in_out_bytes(rows, cols, sizeof(T)));
}

template <typename S>
void softmax_rows(const float* x, float* y, float*, std::int64_t rows, std::int64_t cols,
                  int threads) {
  constexpr Isa kIsa = S::kLanes == 16  ? Isa::avx512
                       : S::kLanes == 8 ? Isa::avx2
                       : S::kLanes == 4 ? Isa::neon
                                        : Isa::scalar;
  const bool stream = stream_rows<float>(rows, cols) && softmax_streams_y(kIsa);
  fused_rows<S>(x, y, rows, cols, 1, stream, stream, threads,
                [&](std::int64_t r, std::int64_t, float* work, Ahead ahead) {
                  float* yr = y + r * cols;
                  softmax_row<S>(x + r * cols, stream ? work : yr, yr, cols, ahead, stream);
                });
}

template <typename S>
void layernorm_rows(const float* x, const float* gamma, const float* beta, float* y, float*,
                    std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const bool stream = stream_rows<float>(rows, cols);
  fused_rows<S>(x, y, rows, cols, kNormGroup<float>, stream, false, threads,
                [&](std::int64_t r, std::int64_t count, float*, Ahead ahead) {
                  layernorm_group<S>(x + r * cols, gamma, beta, y + r * cols, count, cols, eps,
                                     stream, ahead);
                });
}

template <typename S>
void rmsnorm_rows(const float* x, const float* gamma, float* y, float*, std::int64_t rows,
                  std::int64_t cols, float eps, int threads) {
  const bool stream = stream_rows<float>(rows, cols);
  fused_rows<S>(x, y, rows, cols, kNormGroup<float>, stream, false, threads,
                [&](std::int64_t r, std::int64_t count, float*, Ahead ahead) {
                  rmsnorm_group<S>(x + r * cols, gamma, y + r * cols, count, cols, eps, stream,
                                   ahead);
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
