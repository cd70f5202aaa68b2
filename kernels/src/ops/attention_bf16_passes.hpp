#pragma once
// The unfused attention's two bf16 passes (detail::AttentionBf16Passes), over S, the f32
// traits, and B, the ISA's bf16 conversions, which the including unit includes first: the
// scale of Q (widened, multiplied in f32, rounded to nearest even) and the narrowing of a
// GEMM's f32 output. Both go through memory in blocks of 4096 elements, OpenMP over the
// blocks.
#include <algorithm>
#include <cstdint>

#include "attention_ops.hpp"

namespace ridgeline::ops {
namespace {

template <typename S, typename B>
struct Bf16Passes {
  static constexpr std::int64_t kBlock = 4096;

  static void scale(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, float scale,
                    int threads) {
    const typename S::V s = S::set1(scale);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (std::int64_t b = 0; b < n; b += kBlock) {
      const std::int64_t end = std::min(n, b + kBlock);
      std::int64_t i = b;
      for (; i + S::kLanes <= end; i += S::kLanes) B::narrow(y + i, S::mul(B::widen(x + i), s));
      if (i < end) {
        const int rest = static_cast<int>(end - i);
        B::narrow_tail(y + i, rest, S::mul(B::widen_tail(x + i, rest), s));
      }
    }
  }

  static void narrow(const float* x, std::uint16_t* y, std::int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (std::int64_t b = 0; b < n; b += kBlock)
      B::narrow_row(x + b, y + b, std::min(kBlock, n - b));
  }
};

template <typename S, typename B>
constexpr detail::AttentionBf16Passes attention_bf16_passes() {
  return {&Bf16Passes<S, B>::scale, &Bf16Passes<S, B>::narrow};
}

}  // namespace
}  // namespace ridgeline::ops
