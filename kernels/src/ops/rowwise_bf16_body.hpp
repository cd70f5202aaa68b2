#pragma once
// The bf16 forms of the row-wise ops: bf16 in memory for every operand (x, gamma, beta, y and
// the unfused intermediates), f32 arithmetic, results rounded to nearest even. Over S, the
// f32 traits, and B, the ISA's bf16 conversions (Bf16x16 in bf16_avx512.hpp, Bf16x4 in
// bf16_neon.hpp), which the including unit includes first. It reuses the f32 bodies' row
// functions and passes:
//   fused    the f32 row functions and driver over Bf16Elems: each sweep widens x in
//            registers, the last rounds into y (softmax's exp values stay in a per-thread f32
//            row): x read once, y written once (streamed past the cache), as in f32;
//   unfused  the f32 passes over Bf16IO (bf16_io.hpp): each pass widens tiles of 256 elements
//            on the stack and narrows its results, so every intermediate goes through memory
//            as bf16;
//   chain    each register is widened on load and narrowed on store.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bf16_io.hpp"
#include "rowwise_fused_body.hpp"
#include "rowwise_unfused_body.hpp"

namespace ridgeline::ops {
namespace {

// bf16 rows for the fused row functions: widened in registers on load, rounded to nearest
// even on store. Tail lanes past `count` hold `fill`, as F32Elems' do.
template <typename B>
struct Bf16Elems {
  using T = std::uint16_t;
  using V = typename B::V;
  static V load(const T* p) { return B::widen(p); }
  static V load_tail(const T* p, int count, float fill) { return B::load_tail(p, count, fill); }
  static void store(T* p, V v) { B::narrow(p, v); }
  static void store_tail(T* p, int count, V v) { B::narrow_tail(p, count, v); }
  static void stream(T* p, V v) { B::stream(p, v); }
};

// The f32 row functions over Bf16Elems, through the f32 driver: x is read and y written in
// bf16 by the sweeps themselves. In f32: gamma and beta, widened once per call, and for
// softmax each thread's row of exp values (cols floats, in L1/L2).
template <typename B>
std::vector<float> widened(const std::uint16_t* v, std::int64_t n) {
  std::vector<float> out(v ? static_cast<std::size_t>(n) : 0);
  if (v) B::widen_row(v, out.data(), n);
  return out;
}

template <typename S, typename B>
void softmax_rows_bf16(const std::uint16_t* x, std::uint16_t* y, std::uint16_t*, std::int64_t rows,
                       std::int64_t cols, int threads) {
  fused_rows<S>(x, y, rows, cols, 1, false, true, threads,
                [&](std::int64_t r, std::int64_t, float* work, Ahead ahead) {
                  softmax_row<S, Bf16Elems<B>>(x + r * cols, work, y + r * cols, cols, ahead);
                });
}

template <typename S, typename B>
void layernorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma,
                         const std::uint16_t* beta, std::uint16_t* y, std::uint16_t*,
                         std::int64_t rows, std::int64_t cols, float eps, int threads) {
  const std::vector<float> g = widened<B>(gamma, cols), b = widened<B>(beta, cols);
  const bool stream = stream_rows<std::uint16_t>(rows, cols);
  fused_rows<S>(x, y, rows, cols, kNormGroup<std::uint16_t>, stream, false, threads,
                [&](std::int64_t r, std::int64_t count, float*, Ahead ahead) {
                  layernorm_group<S, Bf16Elems<B>>(x + r * cols, g.data(), b.data(), y + r * cols,
                                                   count, cols, eps, stream, ahead);
                });
}

template <typename S, typename B>
void rmsnorm_rows_bf16(const std::uint16_t* x, const std::uint16_t* gamma, std::uint16_t* y,
                       std::uint16_t*, std::int64_t rows, std::int64_t cols, float eps,
                       int threads) {
  const std::vector<float> g = widened<B>(gamma, cols);
  const bool stream = stream_rows<std::uint16_t>(rows, cols);
  fused_rows<S>(x, y, rows, cols, kNormGroup<std::uint16_t>, stream, false, threads,
                [&](std::int64_t r, std::int64_t count, float*, Ahead ahead) {
                  rmsnorm_group<S, Bf16Elems<B>>(x + r * cols, g.data(), y + r * cols, count, cols,
                                                 eps, stream, ahead);
                });
}

template <typename S, typename B>
void eltwise_chain_bf16(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, int L,
                        int threads) {
  eltwise_chain_blocks<S>(
      x, y, n, L, threads,
      [](const std::uint16_t* p, int count) {
        return count == S::kLanes ? B::widen(p) : B::widen_tail(p, count);
      },
      [](std::uint16_t* p, int count, typename S::V v) {
        if (count == S::kLanes)
          B::narrow(p, v);
        else
          B::narrow_tail(p, count, v);
      });
}

template <typename S, typename B>
constexpr detail::RowwiseKernelsBf16 fused_bf16_table() {
  return {&softmax_rows_bf16<S, B>, &layernorm_rows_bf16<S, B>, &rmsnorm_rows_bf16<S, B>,
          &eltwise_chain_bf16<S, B>};
}

}  // namespace
}  // namespace ridgeline::ops
