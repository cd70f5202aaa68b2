// The f32 and f64 micro-panel packing with AVX-512 (F, DQ; panel_packing.hpp), bit for bit
// the portable pack_panel<T>. Where a lane's steps are contiguous (a row-major op(A), a
// transposed op(B)) the portable loop stores one element at a time, a panel-width apart
// (3% of an f64 n = 1024 GEMM on 2 threads); here 16 (f32) or 8 (f64) steps of every lane are
// loaded and transposed in registers, and each step's lanes stored at once. Lanes past
// `lanes` and steps past kc load as zeros, so every entry of the panel is written. Other
// cases go to the portable packing.
#include <immintrin.h>

#include <algorithm>
#include <type_traits>

#include "panel_packing.hpp"
#include "transpose_avx512.hpp"

namespace ridgeline::packed {

namespace {

// One line of each of `rows` lanes, row_bytes apart: a block of steps ahead of the one being
// transposed (each block is one line of every lane).
void prefetch_rows(const char* first, std::int64_t row_bytes, std::int64_t rows) {
  for (std::int64_t i = 0; i < rows; ++i) _mm_prefetch(first + i * row_bytes, _MM_HINT_T0);
}

// The vector of one element type: kLanes lanes (16 f32, 8 f64, one 64-byte line of a row).
struct F32 {
  using T = float;
  using V = __m512;
  using Mask = __mmask16;
  static constexpr int kLanes = 16;
  static Mask first(std::int64_t n) { return first16(n); }
  static V zero() { return _mm512_setzero_ps(); }
  static V load(Mask m, const T* p) { return _mm512_maskz_loadu_ps(m, p); }
  static void store(T* p, Mask m, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static void transpose(V (&r)[kLanes]) {
    __m512i x[kLanes];
    for (int i = 0; i < kLanes; ++i) x[i] = _mm512_castps_si512(r[i]);
    transpose16(x);
    for (int i = 0; i < kLanes; ++i) r[i] = _mm512_castsi512_ps(x[i]);
  }
};
struct F64 {
  using T = double;
  using V = __m512d;
  using Mask = __mmask8;
  static constexpr int kLanes = 8;
  static Mask first(std::int64_t n) { return first8(n); }
  static V zero() { return _mm512_setzero_pd(); }
  static V load(Mask m, const T* p) { return _mm512_maskz_loadu_pd(m, p); }
  static void store(T* p, Mask m, V v) { _mm512_mask_storeu_pd(p, m, v); }
  static void transpose(V (&r)[kLanes]) { transpose8(r); }
};

// kLanes lanes x kLanes steps at a time: each lane's steps loaded as one vector, transposed,
// each step's lanes stored as one; the next 64 steps of every lane are requested meanwhile.
template <typename S>
void pack_lanes(const typename S::T* src, std::int64_t lane_stride, std::int64_t lanes,
                std::int64_t kc, int width, typename S::T* out) {
  using T = typename S::T;
  constexpr std::int64_t kSteps = S::kLanes, kAhead = 64;
  for (int l = 0; l < width; l += S::kLanes) {
    const std::int64_t rows = std::clamp<std::int64_t>(lanes - l, 0, S::kLanes);
    const typename S::Mask store = S::first(width - l);
    const T* lane0 = src + l * lane_stride;
    for (std::int64_t p = 0; p < kc; p += kSteps) {
      const std::int64_t steps = std::min(kSteps, kc - p);
      const typename S::Mask in = S::first(steps);
      if (p + kSteps < kc)
        prefetch_rows(reinterpret_cast<const char*>(lane0 + p + kAhead),
                      lane_stride * std::int64_t{sizeof(T)}, rows);
      typename S::V r[S::kLanes];
      for (int i = 0; i < S::kLanes; ++i)
        r[i] = i < rows ? S::load(in, lane0 + i * lane_stride + p) : S::zero();
      S::transpose(r);
      for (std::int64_t q = 0; q < steps; ++q) S::store(out + (p + q) * width + l, store, r[q]);
    }
  }
}

template <typename T>
using Simd = std::conditional_t<std::is_same_v<T, float>, F32, F64>;

}  // namespace

template <typename T>
void pack_panel_avx512(const T* src, std::int64_t lane_stride, std::int64_t k_stride,
                       std::int64_t lanes, std::int64_t kc, int width, T* out) {
  if (k_stride == 1 && lanes <= width)
    pack_lanes<Simd<T>>(src, lane_stride, lanes, kc, width, out);
  else
    pack_panel(src, lane_stride, k_stride, lanes, kc, width, out);
}

template void pack_panel_avx512<float>(const float*, std::int64_t, std::int64_t, std::int64_t,
                                       std::int64_t, int, float*);
template void pack_panel_avx512<double>(const double*, std::int64_t, std::int64_t, std::int64_t,
                                        std::int64_t, int, double*);

}  // namespace ridgeline::packed
