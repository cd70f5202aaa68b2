#pragma once
// In-register transposes and tail masks for the AVX-512 panel packing
// (panel_packing_grouped_avx512.cpp, panel_packing_avx512.cpp) and the einsum permute
// (permute_blocks_avx512.cpp). Included only by translation units compiled for AVX-512 (F;
// BW for the 16-bit masks those files use themselves).
// GCC 12 reports its own _mm512_undefined_* placeholders as "may be used uninitialized" (or
// "is used uninitialized") once they are inlined (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstdint>

namespace ridgeline::packed {
namespace {

// The first `count` of 16 elements (all for count >= 16, none for count <= 0).
inline __mmask16 first16(std::int64_t count) {
  return count >= 16  ? __mmask16(0xFFFF)
         : count <= 0 ? __mmask16(0)
                      : __mmask16((1u << count) - 1u);
}

// r[i] (16 32-bit elements) := column i of the 16 x 16 matrix whose rows r holds.
inline void transpose16(__m512i (&r)[16]) {
  __m512i t[16], u[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  // u[4g + c], 128-bit lane L: rows 4g..4g+3 of column 4L + c.
  for (int g = 0; g < 16; g += 4) {
    u[g] = _mm512_unpacklo_epi64(t[g], t[g + 2]);
    u[g + 1] = _mm512_unpackhi_epi64(t[g], t[g + 2]);
    u[g + 2] = _mm512_unpacklo_epi64(t[g + 1], t[g + 3]);
    u[g + 3] = _mm512_unpackhi_epi64(t[g + 1], t[g + 3]);
  }
  for (int c = 0; c < 4; ++c) {
    const __m512i x0 = _mm512_shuffle_i32x4(u[c], u[4 + c], 0x88);  // lanes 0, 2 of each
    const __m512i x1 = _mm512_shuffle_i32x4(u[c], u[4 + c], 0xDD);  // lanes 1, 3
    const __m512i y0 = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0x88);
    const __m512i y1 = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0xDD);
    r[c] = _mm512_shuffle_i32x4(x0, y0, 0x88);
    r[4 + c] = _mm512_shuffle_i32x4(x1, y1, 0x88);
    r[8 + c] = _mm512_shuffle_i32x4(x0, y0, 0xDD);
    r[12 + c] = _mm512_shuffle_i32x4(x1, y1, 0xDD);
  }
}

// r[i] (8 doubles) := column i of the 8 x 8 matrix whose rows r holds.
inline void transpose(__m512d (&r)[8]) {
  __m512d t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm512_unpacklo_pd(r[i], r[i + 1]);      // columns 0, 2, 4, 6 of rows i, i + 1
    t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]);  // columns 1, 3, 5, 7
  }
  // Rows g..g+3: u[g] holds columns 0 and 4 (128-bit lanes: rows g, g+1 | the same of column
  // 4 | rows g+2, g+3 | ...), u[g+1] columns 2 and 6, u[g+2] 1 and 5, u[g+3] 3 and 7.
  for (int g = 0; g < 8; g += 4)
    for (int c = 0; c < 2; ++c) {
      u[g + 2 * c] = _mm512_shuffle_f64x2(t[g + c], t[g + c + 2], 0x88);
      u[g + 2 * c + 1] = _mm512_shuffle_f64x2(t[g + c], t[g + c + 2], 0xDD);
    }
  for (int c = 0; c < 4; ++c) {
    const int col = (c & 1) * 2 + (c >> 1);  // u[c] and u[4 + c] hold columns col and col + 4
    r[col] = _mm512_shuffle_f64x2(u[c], u[4 + c], 0x88);
    r[col + 4] = _mm512_shuffle_f64x2(u[c], u[4 + c], 0xDD);
  }
}

// The same for 16 floats, as 32-bit elements.
inline void transpose(__m512 (&r)[16]) {
  __m512i x[16];
  for (int i = 0; i < 16; ++i) x[i] = _mm512_castps_si512(r[i]);
  transpose16(x);
  for (int i = 0; i < 16; ++i) r[i] = _mm512_castsi512_ps(x[i]);
}

}  // namespace
}  // namespace ridgeline::packed
