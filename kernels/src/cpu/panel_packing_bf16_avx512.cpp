// The bf16 micro-panel packing with AVX-512 (F, BW, VL; panel_packing.hpp), bit for bit the
// portable pack_panel<std::uint16_t>: k steps in pairs, two bf16 of one lane as one 32-bit
// element. Every entry of the panel is written (padding lanes and an odd kc's last step as
// zeros), so no memset goes first. Masked loads read nothing past a lane or a step.
#include <immintrin.h>

#include <algorithm>

#include "panel_packing.hpp"
#include "transpose_avx512.hpp"

namespace ridgeline::packed {

namespace {

using Bits = std::uint16_t;

// Lanes contiguous (a row-major op(B), a transposed op(A)): per pair of steps and 16 lanes,
// both steps' bf16 widened to 32 bits, step p in the low half, step p + 1 in the high half.
void pack_steps(const Bits* src, std::int64_t k_stride, std::int64_t lanes, std::int64_t kc,
                int width, Bits* out) {
  for (std::int64_t p = 0; p < kc; p += 2) {
    const Bits* s0 = src + p * k_stride;
    Bits* d = out + p * width;  // pair p / 2 starts at (p / 2) * width * 2
    // Rows a whole leading dimension apart (4 KiB at n = 2048) defeat the hardware
    // prefetchers; 8 pairs ahead halved this loop's share of perf's samples.
    _mm_prefetch(reinterpret_cast<const char*>(s0 + 16 * k_stride), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(s0 + 17 * k_stride), _MM_HINT_T0);
    for (int l = 0; l < width; l += 16) {
      const __mmask16 in = first16(lanes - l);
      const __m512i lo = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(in, s0 + l));
      const __m512i hi =
          p + 1 < kc ? _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(in, s0 + k_stride + l))
                     : _mm512_setzero_si512();
      _mm512_mask_storeu_epi32(d + 2 * l, first16(width - l),
                               _mm512_or_si512(lo, _mm512_slli_epi32(hi, 16)));
    }
  }
}

// Steps contiguous (a row-major op(A), a transposed op(B)): a lane's steps p, p + 1 are
// already one 32-bit element, so packing is a 32-bit transpose, 16 lanes x 16 pairs at a
// time; lanes past `lanes` and an odd kc's last step load as zeros.
void pack_lanes(const Bits* src, std::int64_t lane_stride, std::int64_t lanes, std::int64_t kc,
                int width, Bits* out) {
  for (int l = 0; l < width; l += 16) {
    const std::int64_t rows = std::clamp<std::int64_t>(lanes - l, 0, 16);
    const __mmask16 store = first16(width - l);
    for (std::int64_t p = 0; p < kc; p += 32) {
      const std::int64_t steps = std::min<std::int64_t>(32, kc - p);
      const __mmask32 in = steps == 32 ? ~__mmask32(0) : __mmask32((1u << steps) - 1u);
      __m512i r[16];
      for (int i = 0; i < 16; ++i)
        r[i] = i < rows ? _mm512_maskz_loadu_epi16(in, src + (l + i) * lane_stride + p)
                        : _mm512_setzero_si512();
      transpose16(r);
      const std::int64_t pairs = (steps + 1) / 2;
      for (std::int64_t q = 0; q < pairs; ++q)
        _mm512_mask_storeu_epi32(out + (p / 2 + q) * width * 2 + 2 * l, store, r[q]);
    }
  }
}

}  // namespace

void pack_panel_bf16_avx512(const Bits* src, std::int64_t lane_stride, std::int64_t k_stride,
                            std::int64_t lanes, std::int64_t kc, int width, Bits* out) {
  if (k_stride == 1)
    pack_lanes(src, lane_stride, lanes, kc, width, out);
  else if (lane_stride == 1)
    pack_steps(src, k_stride, lanes, kc, width, out);
  else
    pack_panel(src, lane_stride, k_stride, lanes, kc, width, out);
}

}  // namespace ridgeline::packed
