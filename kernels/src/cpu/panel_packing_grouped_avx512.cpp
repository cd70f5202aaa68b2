// The grouped micro-panel packing with AVX-512 (F, BW, VL; panel_packing.hpp), bit for bit the
// portable pack_panel: bf16 in pairs of k steps, int8 in quads, so a lane's group is one 32-bit
// element either way. Every entry of the panel is written (padding lanes and a kc's last
// partial group as zeros), so no memset goes first. Masked loads read nothing past a lane or a
// step.
#include <immintrin.h>

#include <algorithm>

#include "panel_packing.hpp"
#include "transpose_avx512.hpp"

namespace ridgeline::packed {

namespace {

// 16 elements of one step from p (the first `in` of them; the others zero), each widened into
// the low bits of a 32-bit element.
inline __m512i widen16(const std::uint16_t* p, __mmask16 in) {
  return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(in, p));
}
inline __m512i widen16(const std::int8_t* p, __mmask16 in) {
  return _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(in, p));
}

// The first `count` of a lane's 64 bytes of steps (count in elements of In).
template <typename In>
__m512i load_steps(const In* p, std::int64_t count) {
  constexpr int kPerRow = static_cast<int>(64 / sizeof(In));
  if constexpr (sizeof(In) == 2) {
    const __mmask32 in = count >= kPerRow ? ~__mmask32(0) : __mmask32((1u << count) - 1u);
    return _mm512_maskz_loadu_epi16(in, p);
  } else {
    const __mmask64 in =
        count >= kPerRow ? ~__mmask64(0) : __mmask64((std::uint64_t{1} << count) - 1u);
    return _mm512_maskz_loadu_epi8(in, p);
  }
}

// Lanes contiguous (a row-major op(B), a transposed op(A)): per group of K steps and 16 lanes,
// each step's element widened to 32 bits and shifted to its place in the group.
template <typename In>
void pack_steps(const In* src, std::int64_t k_stride, std::int64_t lanes, std::int64_t kc,
                int width, In* out) {
  constexpr int K = kGroup<In>, kBits = 8 * static_cast<int>(sizeof(In));
  for (std::int64_t p = 0; p < kc; p += K) {
    const In* s0 = src + p * k_stride;
    In* d = out + p * width;  // group p / K starts at (p / K) * width * K
    // Rows a whole leading dimension apart (4 KiB at n = 2048) defeat the hardware
    // prefetchers; 8 groups ahead halved this loop's share of perf's samples (bf16).
    for (int s = 0; s < K; ++s)
      _mm_prefetch(reinterpret_cast<const char*>(s0 + (8 * K + s) * k_stride), _MM_HINT_T0);
    for (int l = 0; l < width; l += 16) {
      const __mmask16 in = first16(lanes - l);
      __m512i group = widen16(s0 + l, in);
      for (int s = 1; s < K; ++s)
        if (p + s < kc)
          group = _mm512_or_si512(group,
                                  _mm512_slli_epi32(widen16(s0 + s * k_stride + l, in), s * kBits));
      _mm512_mask_storeu_epi32(d + K * l, first16(width - l), group);
    }
  }
}

// Steps contiguous (a row-major op(A), a transposed op(B)): a lane's K steps are already one
// 32-bit element, so packing is a 32-bit transpose, 16 lanes x 16 groups at a time; lanes past
// `lanes` and a kc's last partial group load as zeros.
template <typename In>
void pack_lanes(const In* src, std::int64_t lane_stride, std::int64_t lanes, std::int64_t kc,
                int width, In* out) {
  constexpr int K = kGroup<In>, kPerRow = static_cast<int>(64 / sizeof(In));
  for (int l = 0; l < width; l += 16) {
    const std::int64_t rows = std::clamp<std::int64_t>(lanes - l, 0, 16);
    const __mmask16 store = first16(width - l);
    for (std::int64_t p = 0; p < kc; p += kPerRow) {
      const std::int64_t steps = std::min<std::int64_t>(kPerRow, kc - p);
      __m512i r[16];
      for (int i = 0; i < 16; ++i)
        r[i] =
            i < rows ? load_steps(src + (l + i) * lane_stride + p, steps) : _mm512_setzero_si512();
      transpose16(r);
      const std::int64_t groups = (steps + K - 1) / K;
      for (std::int64_t q = 0; q < groups; ++q)
        _mm512_mask_storeu_epi32(out + (p / K + q) * width * K + K * l, store, r[q]);
    }
  }
}

template <typename In>
void pack_grouped(const In* src, std::int64_t lane_stride, std::int64_t k_stride,
                  std::int64_t lanes, std::int64_t kc, int width, In* out) {
  if (k_stride == 1)
    pack_lanes(src, lane_stride, lanes, kc, width, out);
  else if (lane_stride == 1)
    pack_steps(src, k_stride, lanes, kc, width, out);
  else
    pack_panel(src, lane_stride, k_stride, lanes, kc, width, out);
}

}  // namespace

void pack_panel_bf16_avx512(const std::uint16_t* src, std::int64_t lane_stride,
                            std::int64_t k_stride, std::int64_t lanes, std::int64_t kc, int width,
                            std::uint16_t* out) {
  pack_grouped(src, lane_stride, k_stride, lanes, kc, width, out);
}

void pack_panel_i8_avx512(const std::int8_t* src, std::int64_t lane_stride, std::int64_t k_stride,
                          std::int64_t lanes, std::int64_t kc, int width, std::int8_t* out) {
  pack_grouped(src, lane_stride, k_stride, lanes, kc, width, out);
}

}  // namespace ridgeline::packed
