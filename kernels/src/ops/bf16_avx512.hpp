#pragma once
// bf16 <-> f32 for 16 lanes, for the kernels that keep bf16 in memory and compute in f32.
// Included only by units compiled with -mavx512f/bw/vl and -mavx512bf16 (CPUID
// avx512_bf16: Cooper Lake, Sapphire Rapids and later, Zen 4 and Zen 5); the anonymous
// namespace gives each unit its own copy. bf16 is stored as its 16 raw bits (std::uint16_t),
// as OperandBuffer holds it. Narrowing rounds to nearest even (vcvtneps2bf16), the rounding
// core/dtype's to_bf16 uses, so a kernel and its reference round alike.
// GCC 12's false "may be used uninitialized" on its _mm512_undefined_* placeholders (GCC bug
// 105593), as in simd_avx512.hpp.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cstdint>

namespace ridgeline::ops {
namespace {

// bf16 is the top half of an f32: widening is a shift, exact.
inline __m512 widen_bf16(const std::uint16_t* p) {
  const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

// The first `count` lanes (0 <= count <= 16); the others are 0.
inline __m512 widen_bf16_tail(const std::uint16_t* p, int count) {
  const __m256i h = _mm256_maskz_loadu_epi16(static_cast<__mmask16>((1u << count) - 1u), p);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

inline void narrow_bf16(std::uint16_t* p, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), (__m256i)_mm512_cvtneps_pbh(v));
}

// narrow_bf16 with a non-temporal store (p aligned to 32 bytes).
inline void stream_bf16(std::uint16_t* p, __m512 v) {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), (__m256i)_mm512_cvtneps_pbh(v));
}

inline void narrow_bf16_tail(std::uint16_t* p, int count, __m512 v) {
  _mm256_mask_storeu_epi16(p, static_cast<__mmask16>((1u << count) - 1u),
                           (__m256i)_mm512_cvtneps_pbh(v));
}

// Whole rows (n >= 0), for kernels that widen a row into an f32 buffer held in cache.
inline void widen_bf16_row(const std::uint16_t* src, float* dst, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, widen_bf16(src + i));
  if (i < n) {
    const int rest = static_cast<int>(n - i);
    _mm512_mask_storeu_ps(dst + i, static_cast<__mmask16>((1u << rest) - 1u),
                          widen_bf16_tail(src + i, rest));
  }
}

inline void narrow_bf16_row(const float* src, std::uint16_t* dst, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) narrow_bf16(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    const int rest = static_cast<int>(n - i);
    narrow_bf16_tail(dst + i, rest,
                     _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << rest) - 1u), src + i));
  }
}

// The conversions as the row-wise bf16 body takes them (rowwise_bf16_body.hpp).
struct Bf16x16 {
  using V = __m512;
  static V widen(const std::uint16_t* p) { return widen_bf16(p); }
  static V widen_tail(const std::uint16_t* p, int count) { return widen_bf16_tail(p, count); }
  // The first `count` lanes widened, the others `fill`.
  static V load_tail(const std::uint16_t* p, int count, float fill) {
    return _mm512_mask_mov_ps(_mm512_set1_ps(fill), static_cast<__mmask16>((1u << count) - 1u),
                              widen_bf16_tail(p, count));
  }
  static void narrow(std::uint16_t* p, V v) { narrow_bf16(p, v); }
  static void narrow_tail(std::uint16_t* p, int count, V v) { narrow_bf16_tail(p, count, v); }
  static void stream(std::uint16_t* p, V v) { stream_bf16(p, v); }
  static void widen_row(const std::uint16_t* src, float* dst, std::int64_t n) {
    widen_bf16_row(src, dst, n);
  }
  static void narrow_row(const float* src, std::uint16_t* dst, std::int64_t n) {
    narrow_bf16_row(src, dst, n);
  }
  static void put(std::uint16_t* p, float v) { narrow_bf16_tail(p, 1, _mm512_set1_ps(v)); }
};

}  // namespace
}  // namespace ridgeline::ops
