#pragma once
// The fused eltwise chain, written once over a SIMD traits type S (rowwise_simd.hpp): L unary
// ops on each register between one load and one store. Included by rowwise_fused_body.hpp
// (anonymous namespace: one copy per ISA).
#include <algorithm>
#include <cstdint>

#include "rowwise_ops.hpp"
#include "rowwise_simd.hpp"

namespace ridgeline::ops {
namespace {

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

}  // namespace
}  // namespace ridgeline::ops
