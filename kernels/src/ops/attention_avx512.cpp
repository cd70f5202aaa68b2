// The fused attention for AVX-512 (F, DQ, BW, VL; flags in kernels/CMakeLists.txt): blocks of
// 32 query rows (2 zmm), chunks of 8 keys: 16 score registers, then 16 probabilities beside
// 6 x 2 output accumulators (28 of the 32 zmm registers). Each broadcast of K or V feeds two
// FMAs; with one (16 rows x 16 keys) it ran 10% slower on Zen 5 (docs/attention.md).
// bf16 (AVX512_BF16, -mavx512bf16; called only where CPUID has it): the same tiles over f32
// scratch, the operands widened on the way in and O narrowed on the way out; and the
// unfused chain's two bf16 passes (the scale of Q, the narrowing of the GEMMs' f32 output).
// Inlined into the bf16 tiles, GCC 12's _mm512_undefined_* placeholders are also reported
// as "is used uninitialized" (GCC bug 105593, as in simd_avx512.hpp; fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <bit>

#include "attention_fused_body.hpp"
#include "bf16_avx512.hpp"
#include "simd_avx512.hpp"

namespace ridgeline::ops {
namespace {

struct Bf16IO {
  using T = std::uint16_t;
  static constexpr bool kDirect = false;
  // bf16 is the top half of an f32: exact, and cheap enough for the packs' transposes.
  static float get(const T* p) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(*p) << 16);
  }
  static void widen(const T* src, float* dst, std::int64_t n) { widen_bf16_row(src, dst, n); }
  static void narrow(const float* src, T* dst, std::int64_t n) { narrow_bf16_row(src, dst, n); }
};

using Tiles = Flash<F32x16, 2, 8, 6>;

// Both passes go through memory in blocks of 4096 elements, OpenMP over the blocks.
constexpr std::int64_t kPassBlock = 4096;

void scale_bf16(const std::uint16_t* x, std::uint16_t* y, std::int64_t n, float scale,
                int threads) {
  const __m512 s = _mm512_set1_ps(scale);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (std::int64_t b = 0; b < n; b += kPassBlock) {
    const std::int64_t end = std::min(n, b + kPassBlock);
    std::int64_t i = b;
    for (; i + 16 <= end; i += 16) narrow_bf16(y + i, _mm512_mul_ps(widen_bf16(x + i), s));
    if (i < end) {
      const int rest = static_cast<int>(end - i);
      narrow_bf16_tail(y + i, rest, _mm512_mul_ps(widen_bf16_tail(x + i, rest), s));
    }
  }
}

void narrow_f32(const float* x, std::uint16_t* y, std::int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (std::int64_t b = 0; b < n; b += kPassBlock)
    narrow_bf16_row(x + b, y + b, std::min(kPassBlock, n - b));
}

}  // namespace

namespace detail {
const AttentionFused attention_avx512 = {&Tiles::scratch, &Tiles::run<F32IO>, Tiles::L, 8,
                                         &Tiles::run<Bf16IO>};
const AttentionBf16Passes attention_bf16_passes_avx512 = {&scale_bf16, &narrow_f32};
}  // namespace detail

}  // namespace ridgeline::ops
