// The f32 and f64 micro-panel packing with AVX-512 (panel_packing.hpp), bit for bit
// the portable pack_panel<T>. Where a lane's steps are contiguous (a row-major op(A), a
// transposed op(B)) the portable loop stores one element at a time, a panel-width apart
// (3% of an f64 n = 1024 GEMM on 2 threads); here 16 (f32) or 8 (f64) steps of every lane are
// loaded and transposed in registers, and each step's lanes stored at once. Lanes past
// `lanes` and steps past kc load as zeros, so every entry of the panel is written. Other
// cases go to the portable packing.
#include <immintrin.h>

#include <algorithm>
#include <type_traits>

#include "../ops/simd_avx512.hpp"
#include "panel_packing.hpp"
#include "transpose_avx512.hpp"

namespace ridgeline::packed {

namespace {

// One line of each of `rows` lanes, row_bytes apart: a block of steps ahead of the one being
// transposed (each block is one line of every lane).
void prefetch_rows(const char* first, std::int64_t row_bytes, std::int64_t rows) {
  for (std::int64_t i = 0; i < rows; ++i) _mm_prefetch(first + i * row_bytes, _MM_HINT_T0);
}

// kLanes lanes x kLanes steps at a time: each lane's steps loaded as one vector, transposed,
// each step's lanes stored as one; the next 64 steps of every lane are requested meanwhile.
template <typename S>  // ops::F32x16 or ops::F64x8
void pack_lanes(const typename S::T* src, std::int64_t lane_stride, std::int64_t lanes,
                std::int64_t kc, int width, typename S::T* out) {
  using T = typename S::T;
  constexpr int kSteps = S::kLanes;
  constexpr std::int64_t kAhead = 64;
  for (int l = 0; l < width; l += S::kLanes) {
    const std::int64_t rows = std::clamp<std::int64_t>(lanes - l, 0, S::kLanes);
    const int stored = std::min(width - l, S::kLanes);
    const T* lane0 = src + l * lane_stride;
    for (std::int64_t p = 0; p < kc; p += kSteps) {
      const int steps = static_cast<int>(std::min<std::int64_t>(kSteps, kc - p));
      if (p + kAhead < kc)
        prefetch_rows(reinterpret_cast<const char*>(lane0 + p + kAhead),
                      lane_stride * std::int64_t{sizeof(T)}, rows);
      typename S::V r[S::kLanes];
      for (int i = 0; i < S::kLanes; ++i)
        r[i] = i < rows ? S::load_tail(lane0 + i * lane_stride + p, steps, T(0)) : S::set1(T(0));
      transpose(r);
      for (int q = 0; q < steps; ++q) S::store_tail(out + (p + q) * width + l, stored, r[q]);
    }
  }
}

template <typename T>
using Simd = std::conditional_t<std::is_same_v<T, float>, ops::F32x16, ops::F64x8>;

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
