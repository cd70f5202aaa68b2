#pragma once
// The fused (flash-style) attention, written once over a SIMD traits type S
// (rowwise_simd.hpp). A block holds L = R * S::kLanes query rows, one per lane of R vectors,
// so every per-row quantity (the scores of one key, the running max m and sum l) is R
// vectors and the softmax needs no horizontal reductions. Per head, K and V are first packed
// in chunks of J keys, each chunk a [head_dim][J] block, so the chunk loops broadcast from
// fixed offsets. For each block, chunk after chunk: the J x R score vectors in registers
// (Q^T scaled by 1/sqrt(head_dim) when the block is transposed, times K), the causal /
// past-the-end mask where the chunk crosses it, the online softmax (a larger max rescales l
// and the O^T accumulator by exp(m_old - m_new)), then O^T += V^T P, C output columns at a
// time. O^T and Q^T ([head_dim][L], 8 KiB each at head_dim 64 and 32 rows) stay in L1; the
// seq x seq scores are never stored. Causal blocks stop at their last row's key, so chunks
// above the diagonal are never visited. Included only by the ISA-specific units (anonymous
// namespace: one copy per ISA).
//
// The element type of Q, K, V and O is an IO policy's T: F32IO reads and writes the operands
// in place; Bf16IO (bf16_io.hpp, over the unit's bf16 conversions) widens on the way in and
// narrows on the way out, the tile math being the same f32: the K and V packs widen element
// by element (once per head and chunk), a block's query rows are widened into O^T's scratch
// before they are transposed into Q^T, and its output rows are gathered into Q^T's scratch
// (no longer needed) and narrowed in one contiguous run.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "attention_ops.hpp"
#include "bf16_io.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

// f32 operands: read and written where they are.
struct F32IO {
  using T = float;
  static constexpr bool kDirect = true;
  static float get(const float* p) { return *p; }
};

template <typename S, int R, int J, int C>
struct Flash {
  using V = typename S::V;
  static constexpr int W = S::kLanes;
  static constexpr int L = R * W;  // query rows per block: R vectors of W
  static constexpr float kNegInf = -std::numeric_limits<float>::infinity();

  struct Layout {
    std::int64_t chunks;        // of J keys per head, the last zero-padded
    std::int64_t chunk_floats;  // J * head_dim
    std::int64_t head_floats;   // packed K (or V) of one head
    std::int64_t block_floats;  // Q^T or O^T of one block, rounded to 64 bytes
  };

  static std::int64_t round16(std::int64_t n) { return (n + 15) / 16 * 16; }

  static Layout layout(const AttentionShape& s) {
    const std::int64_t chunks = (s.seq + J - 1) / J;
    return {chunks, J * s.head_dim, chunks * J * s.head_dim, round16(L * s.head_dim)};
  }

  // Packed K, packed V (all heads), then Q^T and O^T per thread.
  static std::size_t scratch(const AttentionShape& s, int threads) {
    const Layout l = layout(s);
    return static_cast<std::size_t>(round16(2 * s.heads * l.head_floats) +
                                    2 * threads * l.block_floats);
  }

  // Keys [j0, j0 + J) of one head's K or V (rows of d elements) as a [d][J] block of floats,
  // entry (p, j) at p * J + j; keys past seq are zero.
  template <typename IO>
  static void pack(const typename IO::T* src, std::int64_t j0, std::int64_t seq, std::int64_t d,
                   float* out) {
    const std::int64_t n = std::min<std::int64_t>(J, seq - j0);
    for (std::int64_t j = 0; j < n; ++j) {
      const typename IO::T* row = src + (j0 + j) * d;
      for (std::int64_t p = 0; p < d; ++p) out[p * J + j] = IO::get(row + p);
    }
    for (std::int64_t j = n; j < J; ++j)
      for (std::int64_t p = 0; p < d; ++p) out[p * J + j] = 0.0f;
  }

  // The running state of one block, per vector of rows: max m, sum l, and the last key each
  // row sees (keys past it are masked).
  struct Rows {
    V m[R], l[R], last[R];
  };

  template <int N>
  static V tree_sum(const V* v, int stride) {
    if constexpr (N == 1)
      return v[0];
    else
      return S::add(tree_sum<N / 2>(v, stride), tree_sum<N - N / 2>(v + N / 2 * stride, stride));
  }
  template <int N>
  static V tree_max(const V* v, int stride) {
    if constexpr (N == 1)
      return v[0];
    else
      return S::max(tree_max<N / 2>(v, stride), tree_max<N - N / 2>(v + N / 2 * stride, stride));
  }

  // One chunk of J keys (packed kc, vc) against the block: qt = scaled Q^T and ot = O^T,
  // both [d][L]. With `masked`, key j0 + j is dropped (score -inf) in the rows whose last
  // key is below it.
  static void chunk(const float* qt, const float* kc, const float* vc, std::int64_t d, float* ot,
                    Rows& rows, bool masked, float j0) {
    V s[J][R];
#pragma GCC unroll 32
    for (int j = 0; j < J; ++j)
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) s[j][r] = S::set1(0.0f);
    for (std::int64_t p = 0; p < d; ++p) {
      V qv[R];
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) qv[r] = S::load(qt + p * L + r * W);
      const float* kp = kc + p * J;
#pragma GCC unroll 32
      for (int j = 0; j < J; ++j) {
        const V kb = S::set1(kp[j]);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) s[j][r] = S::fma(kb, qv[r], s[j][r]);
      }
    }
    if (masked) {
#pragma GCC unroll 32
      for (int j = 0; j < J; ++j)
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r)
          s[j][r] = S::fill_where_greater(s[j][r], S::set1(j0 + static_cast<float>(j)),
                                          rows.last[r], kNegInf);
    }
    // Online softmax: every key seen so far is weighted by exp(score - m); a larger max
    // rescales what was accumulated (rare once the first chunks have set it).
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const V mx = S::max(rows.m[r], tree_max<J>(&s[0][r], R));
      if (S::any_greater(mx, rows.m[r])) {
        const V alpha =
            exp_nonpositive<S>(S::sub(rows.m[r], mx));  // 0 on the first chunk (m = -inf)
        rows.l[r] = S::mul(rows.l[r], alpha);
        for (std::int64_t c = 0; c < d; ++c)
          S::store(ot + c * L + r * W, S::mul(S::load(ot + c * L + r * W), alpha));
        rows.m[r] = mx;
      }
#pragma GCC unroll 32
      for (int j = 0; j < J; ++j) s[j][r] = exp_nonpositive<S>(S::sub(s[j][r], rows.m[r]));
      rows.l[r] = S::add(rows.l[r], tree_sum<J>(&s[0][r], R));
    }
    // O^T[c] += sum_j V[j][c] * P[j], C columns at a time, P in registers.
    std::int64_t c = 0;
    for (; c + C <= d; c += C) {
      const float* vp = vc + c * J;
      V acc[C][R];
#pragma GCC unroll 16
      for (int k = 0; k < C; ++k)
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) acc[k][r] = S::load(ot + (c + k) * L + r * W);
#pragma GCC unroll 32
      for (int j = 0; j < J; ++j)
#pragma GCC unroll 16
        for (int k = 0; k < C; ++k) {
          const V vb = S::set1(vp[k * J + j]);
#pragma GCC unroll 4
          for (int r = 0; r < R; ++r) acc[k][r] = S::fma(vb, s[j][r], acc[k][r]);
        }
#pragma GCC unroll 16
      for (int k = 0; k < C; ++k)
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) S::store(ot + (c + k) * L + r * W, acc[k][r]);
    }
    for (; c < d; ++c) {
      const float* vp = vc + c * J;
      V acc[R];
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) acc[r] = S::load(ot + c * L + r * W);
#pragma GCC unroll 32
      for (int j = 0; j < J; ++j) {
        const V vb = S::set1(vp[j]);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) acc[r] = S::fma(vb, s[j][r], acc[r]);
      }
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) S::store(ot + c * L + r * W, acc[r]);
    }
  }

  // Query rows [i0, i0 + L) of head h (rows past seq are zero and never stored).
  template <typename IO>
  static void block(const AttentionArgsOf<typename IO::T>& a, std::int64_t h, std::int64_t i0,
                    const float* kp, const float* vp, float* qt, float* ot, float scale) {
    const AttentionShape& s = a.shape;
    const std::int64_t d = s.head_dim, seq = s.seq;
    const std::int64_t count = std::min<std::int64_t>(L, seq - i0);
    const float* q;
    if constexpr (IO::kDirect) {
      q = a.q + (h * seq + i0) * d;
    } else {
      IO::widen(a.q + (h * seq + i0) * d, ot, count * d);  // ot is cleared just below
      q = ot;
    }
    for (std::int64_t r = 0; r < L; ++r)
      for (std::int64_t p = 0; p < d; ++p) qt[p * L + r] = r < count ? q[r * d + p] * scale : 0.0f;
    std::fill(ot, ot + d * L, 0.0f);
    alignas(64) float last[L];
    for (int r = 0; r < L; ++r)
      last[r] = static_cast<float>(s.causal ? std::min(i0 + r, seq - 1) : seq - 1);
    Rows rows;
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      rows.m[r] = S::set1(kNegInf);
      rows.l[r] = S::set1(0.0f);
      rows.last[r] = S::load(last + r * W);
    }
    // The smallest last key decides which chunks need the mask; causal blocks end at their
    // last row's key (the chunks above the diagonal are skipped).
    const std::int64_t lowest_last = s.causal ? i0 : seq - 1;
    const std::int64_t end = s.causal ? std::min(seq, i0 + L) : seq;
    const std::int64_t chunk_floats = J * d;
    for (std::int64_t j0 = 0; j0 < end; j0 += J) {
      const std::int64_t t = j0 / J;
      chunk(qt, kp + t * chunk_floats, vp + t * chunk_floats, d, ot, rows, j0 + J - 1 > lowest_last,
            static_cast<float>(j0));
    }
    alignas(64) float sum[L];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) S::store(sum + r * W, rows.l[r]);
    typename IO::T* o = a.o + (h * seq + i0) * d;
    float* rows_out = IO::kDirect ? reinterpret_cast<float*>(o) : qt;
    for (std::int64_t r = 0; r < count; ++r) {
      const float inv = 1.0f / sum[r];
      for (std::int64_t p = 0; p < d; ++p) rows_out[r * d + p] = ot[p * L + r] * inv;
    }
    if constexpr (!IO::kDirect) IO::narrow(rows_out, o, count * d);
  }

  template <typename IO>
  static void run(const AttentionArgsOf<typename IO::T>& a, float* scratch, int threads) {
    const AttentionShape& s = a.shape;
    const Layout lay = layout(s);
    const std::int64_t d = s.head_dim, seq = s.seq;
    float* kp = scratch;
    float* vp = kp + s.heads * lay.head_floats;
    float* blocks = scratch + round16(2 * s.heads * lay.head_floats);
    const std::int64_t nblocks = (seq + L - 1) / L;
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
      for (std::int64_t x = 0; x < s.heads * lay.chunks; ++x) {
        const std::int64_t h = x / lay.chunks, t = x % lay.chunks;
        const std::int64_t at = h * lay.head_floats + t * lay.chunk_floats;
        pack<IO>(a.k + h * seq * d, t * J, seq, d, kp + at);
        pack<IO>(a.v + h * seq * d, t * J, seq, d, vp + at);
      }
      float* qt = blocks + 2 * omp_get_thread_num() * lay.block_floats;
      float* ot = qt + lay.block_floats;
      // Dynamic: causal blocks differ in length; each head's longest go first.
#pragma omp for schedule(dynamic)
      for (std::int64_t x = 0; x < s.heads * nblocks; ++x) {
        const std::int64_t h = x / nblocks, b = nblocks - 1 - x % nblocks;
        block<IO>(a, h, b * L, kp + h * lay.head_floats, vp + h * lay.head_floats, qt, ot, scale);
      }
    }
  }
};

// B: the ISA's bf16 conversions for a bf16 entry (the units that have one), or void for none.
template <typename S, int R, int J, int C, typename B = void>
constexpr detail::AttentionFused attention_table() {
  using F = Flash<S, R, J, C>;
  if constexpr (std::is_void_v<B>)
    return {&F::scratch, &F::template run<F32IO>, F::L, J, nullptr};
  else
    return {&F::scratch, &F::template run<F32IO>, F::L, J, &F::template run<Bf16IO<B>>};
}

}  // namespace
}  // namespace ridgeline::ops
