#pragma once
// The fused bf16 attention with both matmuls on the AMX tiles (docs/attention.md, "The AMX
// path"), written once against the tile interface (cpu/amx_tiles.hpp) and a vector policy P,
// so the same code runs on the instructions (attention_amx.cpp: AVX-512) and on the tile model
// (attention_amx_model.cpp: one lane, any CPU).
//
// Transposed, so that a lane is a query row as in the vector path (attention_fused_body.hpp)
// and the online softmax needs no horizontal reductions: per block of 32 query rows and chunk
// of J = 64 keys (two key tiles),
//   S^T (J keys x 32 queries, a key tile at a time) = K_chunk Q^T: A = K's rows (packed per
//       head, head_dim padded to dk, a multiple of 32), B = the block's Q in VNNI pairs, which
//       is Q's rows read as 32-bit words and transposed (packed once per block); to L1;
//   the scale, the mask and the online softmax on it, key row by key row (per query vector:
//       max, rescale of l and O^T where the max grew, p = exp(s - m)), p narrowed two key
//       rows at a time into the VNNI pairs of P^T;
//   O^T (dk x 32 queries, f32 in L1) += V^T_chunk P^T: A = V^T (packed per head and chunk),
//       B = P^T; O^T goes through the accumulator tiles 32 rows of dk at a time, each load
//       and store serving both key tiles.
// Each product is 2 x 2 accumulator tiles (C 0-3, A 4-5, B 6-7: the register plan).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "attention_ops.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

// TilesOf: get() the thread's tiles, begin() and end() to configure and release them.
// P: S (SIMD traits), pair(a, b, out) storing each lane's bf16(a), bf16(b) as one 32-bit
// word, and narrow(src, dst, n) for an output row.
template <typename TilesOf, typename P>
struct AmxFlash {
  using S = typename P::S;
  using V = typename S::V;
  static constexpr int W = S::kLanes;
  static constexpr int L = 32;  // query rows per block
  // Keys per chunk: two key tiles, so that each load and store of O^T in the accumulator tiles
  // serves two products (and the max is checked once per 64 keys).
  static constexpr int kKeyTiles = 2;
  static constexpr int J = 32 * kKeyTiles;
  static constexpr int G = L / W;    // vectors of query rows
  static constexpr int kTileK = 32;  // bf16 steps in a tile row
  static constexpr float kNegInf = -std::numeric_limits<float>::infinity();

  struct Layout {
    std::int64_t chunks, dk;
    std::int64_t chunk_elems;  // bf16 of one packed chunk of K (or V^T): J * dk
    std::int64_t head_elems;   // of one head
    std::int64_t qb_floats, st_floats, pt_floats, ot_floats, thread_floats;
  };

  static std::int64_t round16(std::int64_t n) { return (n + 15) / 16 * 16; }

  static Layout layout(const AttentionShape& s) {
    Layout l{};
    l.chunks = (s.seq + J - 1) / J;
    l.dk = (s.head_dim + kTileK - 1) / kTileK * kTileK;
    l.chunk_elems = J * l.dk;
    l.head_elems = l.chunks * l.chunk_elems;
    l.qb_floats = l.dk / 2 * L;  // Q's VNNI pairs, one 32-bit word each
    l.st_floats = J * L;         // S^T
    l.pt_floats = J / 2 * L;     // P^T's VNNI pairs
    l.ot_floats = l.dk * L;      // O^T
    l.thread_floats = l.qb_floats + l.st_floats + l.pt_floats + l.ot_floats + round16(l.dk);
    return l;
  }

  // Packed K and V^T of all heads (bf16, two per float), then each thread's blocks.
  static std::size_t scratch(const AttentionShape& s, int threads) {
    const Layout l = layout(s);
    return static_cast<std::size_t>(round16(s.heads * l.head_elems) + threads * l.thread_floats);
  }

  // Chunk t of one head: K's rows [J][dk] and V^T [dk][J], zero past seq and head_dim.
  static void pack(const std::uint16_t* k, const std::uint16_t* v, std::int64_t t, std::int64_t seq,
                   std::int64_t d, std::int64_t dk, std::uint16_t* kc, std::uint16_t* vt) {
    std::memset(kc, 0, sizeof(std::uint16_t) * static_cast<std::size_t>(J * dk));
    std::memset(vt, 0, sizeof(std::uint16_t) * static_cast<std::size_t>(J * dk));
    const std::int64_t j0 = t * J, n = std::min<std::int64_t>(J, seq - j0);
    for (std::int64_t j = 0; j < n; ++j) {
      std::memcpy(kc + j * dk, k + (j0 + j) * d,
                  sizeof(std::uint16_t) * static_cast<std::size_t>(d));
      for (std::int64_t c = 0; c < d; ++c) vt[c * J + j] = v[(j0 + j) * d + c];
    }
  }

  // The block's Q as B tiles: word (r, n) holds Q[n][2r], Q[n][2r + 1]; zero past the rows.
  static void pack_q(const std::uint16_t* q, std::int64_t count, std::int64_t d, std::int64_t dk,
                     std::uint16_t* qb) {
    std::memset(qb, 0, sizeof(std::uint16_t) * static_cast<std::size_t>(dk * L));
    for (std::int64_t n = 0; n < count; ++n)
      for (std::int64_t p = 0; p < d; ++p) qb[(p / 2 * L + n) * 2 + p % 2] = q[n * d + p];
  }

  // C0..3 += A (two tiles of 16 rows, `a_stride` bytes) times B (16 pair rows of 32 columns,
  // 128 bytes apart).
  static void product(const void* a0, const void* a1, std::size_t a_stride, const void* b) {
    auto& t = TilesOf::get();
    constexpr std::size_t kBRow = L * 4;
    const auto* bp = static_cast<const std::uint8_t*>(b);
    t.template load<4>(a0, a_stride);
    t.template load<6>(bp, kBRow);
    t.template dpbf16ps<0, 4, 6>();
    t.template load<7>(bp + 64, kBRow);
    t.template dpbf16ps<1, 4, 7>();
    t.template load<5>(a1, a_stride);
    t.template dpbf16ps<2, 5, 6>();
    t.template dpbf16ps<3, 5, 7>();
  }

  // The 32 x 32 f32 block at c (rows `ld` floats apart) to or from C0..3.
  static void load_c(const float* c, std::int64_t ld) {
    auto& t = TilesOf::get();
    const std::size_t row = static_cast<std::size_t>(ld) * 4;
    t.template load<0>(c, row);
    t.template load<1>(c + 16, row);
    t.template load<2>(c + 16 * ld, row);
    t.template load<3>(c + 16 * ld + 16, row);
  }
  static void store_c(float* c, std::int64_t ld) {
    auto& t = TilesOf::get();
    const std::size_t row = static_cast<std::size_t>(ld) * 4;
    t.template store<0>(c, row);
    t.template store<1>(c + 16, row);
    t.template store<2>(c + 16 * ld, row);
    t.template store<3>(c + 16 * ld + 16, row);
  }

  struct Rows {
    V m[G], l[G], last[G];
  };

  // The scaled score of key j for query vector g, -inf past the row's last key.
  static V score(const float* st, int j, int g, V scale, const Rows& rows, bool masked, float j0) {
    const V x = S::mul(S::load(st + j * L + g * W), scale);
    return masked ? S::fill_where_greater(x, S::set1(j0 + static_cast<float>(j)), rows.last[g],
                                          kNegInf)
                  : x;
  }

  // The online softmax on S^T (as in attention_fused_body.hpp), P^T into pt in VNNI pairs.
  static void softmax(const float* st, std::uint32_t* pt, float* ot, std::int64_t d, Rows& rows,
                      float scale_f, bool masked, float j0) {
    const V scale = S::set1(scale_f);
    for (int g = 0; g < G; ++g) {
      V mx = rows.m[g];
      for (int j = 0; j < J; ++j) mx = S::max(mx, score(st, j, g, scale, rows, masked, j0));
      if (S::any_greater(mx, rows.m[g])) {
        const V alpha = exp_nonpositive<S>(S::sub(rows.m[g], mx));  // 0 on the first chunk
        rows.l[g] = S::mul(rows.l[g], alpha);
        for (std::int64_t c = 0; c < d; ++c)
          S::store(ot + c * L + g * W, S::mul(S::load(ot + c * L + g * W), alpha));
        rows.m[g] = mx;
      }
      V sum = S::set1(0.0f);
      for (int j = 0; j < J; j += 2) {
        const V a = exp_nonpositive<S>(S::sub(score(st, j, g, scale, rows, masked, j0), mx));
        const V b = exp_nonpositive<S>(S::sub(score(st, j + 1, g, scale, rows, masked, j0), mx));
        sum = S::add(sum, S::add(a, b));
        P::pair(a, b, pt + j / 2 * L + g * W);
      }
      rows.l[g] = S::add(rows.l[g], sum);
    }
  }

  // Query rows [i0, i0 + L) of head h; packed: the head's chunks (K then V^T, chunk after
  // chunk); tb: the thread's blocks.
  static void block(const AttentionArgsBf16& a, const Layout& lay, std::int64_t h, std::int64_t i0,
                    const std::uint16_t* packed, float* tb, float scale) {
    const AttentionShape& s = a.shape;
    const std::int64_t d = s.head_dim, seq = s.seq, dk = lay.dk;
    const std::int64_t count = std::min<std::int64_t>(L, seq - i0);
    auto* qb = reinterpret_cast<std::uint16_t*>(tb);
    float* st = tb + lay.qb_floats;
    auto* pt = reinterpret_cast<std::uint32_t*>(st + lay.st_floats);
    float* ot = st + lay.st_floats + lay.pt_floats;
    float* row = ot + lay.ot_floats;
    pack_q(a.q + (h * seq + i0) * d, count, d, dk, qb);
    std::fill(ot, ot + lay.ot_floats, 0.0f);
    alignas(64) float last[L];
    for (int r = 0; r < L; ++r)
      last[r] = static_cast<float>(s.causal ? std::min(i0 + r, seq - 1) : seq - 1);
    Rows rows;
    for (int g = 0; g < G; ++g) {
      rows.m[g] = S::set1(kNegInf);
      rows.l[g] = S::set1(0.0f);
      rows.last[g] = S::load(last + g * W);
    }
    auto& t = TilesOf::get();
    const std::int64_t lowest_last = s.causal ? i0 : seq - 1;
    const std::int64_t end = s.causal ? std::min(seq, i0 + L) : seq;
    const std::size_t k_row = static_cast<std::size_t>(dk) * 2;
    for (std::int64_t j0 = 0; j0 < end; j0 += J) {
      const std::uint16_t* kc = packed + 2 * (j0 / J) * lay.chunk_elems;
      const std::uint16_t* vt = kc + lay.chunk_elems;
      for (int kt = 0; kt < kKeyTiles; ++kt) {
        const std::uint16_t* keys = kc + kt * 32 * dk;
        t.template zero<0>();
        t.template zero<1>();
        t.template zero<2>();
        t.template zero<3>();
        for (std::int64_t p = 0; p < dk; p += kTileK)
          product(keys + p, keys + 16 * dk + p, k_row, qb + p * L);
        store_c(st + kt * 32 * L, L);
      }
      softmax(st, pt, ot, d, rows, scale, j0 + J - 1 > lowest_last, static_cast<float>(j0));
      for (std::int64_t c = 0; c < dk; c += 32) {
        load_c(ot + c * L, L);
        for (int kt = 0; kt < kKeyTiles; ++kt)
          product(vt + c * J + kt * 32, vt + (c + 16) * J + kt * 32, J * 2, pt + kt * 16 * L);
        store_c(ot + c * L, L);
      }
    }
    alignas(64) float sum[L];
    for (int g = 0; g < G; ++g) S::store(sum + g * W, rows.l[g]);
    std::uint16_t* o = a.o + (h * seq + i0) * d;
    for (std::int64_t r = 0; r < count; ++r) {
      const float inv = 1.0f / sum[r];
      for (std::int64_t c = 0; c < d; ++c) row[c] = ot[c * L + r] * inv;
      P::narrow(row, o + r * d, d);
    }
  }

  static void run(const AttentionArgsBf16& a, float* scratch, int threads) {
    const AttentionShape& s = a.shape;
    const Layout lay = layout(s);
    const std::int64_t d = s.head_dim, seq = s.seq;
    auto* packed = reinterpret_cast<std::uint16_t*>(scratch);  // K and V^T chunk after chunk
    float* blocks = scratch + round16(s.heads * lay.head_elems);
    const std::int64_t nblocks = (seq + L - 1) / L;
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
      for (std::int64_t x = 0; x < s.heads * lay.chunks; ++x) {
        const std::int64_t h = x / lay.chunks, t = x % lay.chunks;
        std::uint16_t* kc = packed + 2 * (h * lay.head_elems + t * lay.chunk_elems);
        pack(a.k + h * seq * d, a.v + h * seq * d, t, seq, d, lay.dk, kc, kc + lay.chunk_elems);
      }
      float* tb = blocks + omp_get_thread_num() * lay.thread_floats;
      TilesOf::begin();
      // Dynamic: causal blocks differ in length; each head's longest go first.
#pragma omp for schedule(dynamic)
      for (std::int64_t x = 0; x < s.heads * nblocks; ++x) {
        const std::int64_t h = x / nblocks, b = nblocks - 1 - x % nblocks;
        block(a, lay, h, b * L, packed + 2 * h * lay.head_elems, tb, scale);
      }
      TilesOf::end();
    }
  }
};

}  // namespace
}  // namespace ridgeline::ops
