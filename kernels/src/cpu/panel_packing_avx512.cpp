// The f32 and f64 micro-panel packing with AVX-512 (F, DQ; panel_packing.hpp), bit for bit
// the portable pack_panel<T>. Where a lane's steps are contiguous (a row-major op(A), a
// transposed op(B)) the portable loop stores one element at a time, a panel-width apart
// (3% of an f64 n = 1024 GEMM on 2 threads); here 16 (f32) or 8 (f64) steps of every lane are
// loaded and transposed in registers, and each step's lanes stored at once. Lanes past
// `lanes` and steps past kc load as zeros, so every entry of the panel is written. Other
// cases go to the portable packing.
#include <immintrin.h>

#include <algorithm>

#include "panel_packing.hpp"
#include "transpose_avx512.hpp"

namespace ridgeline::packed {

namespace {

// One line of each of `rows` lanes, row_bytes apart: a block of steps ahead of the one being
// transposed (each block is one line of every lane).
void prefetch_rows(const char* first, std::int64_t row_bytes, std::int64_t rows) {
  for (std::int64_t i = 0; i < rows; ++i) _mm_prefetch(first + i * row_bytes, _MM_HINT_T0);
}

void pack_lanes(const float* src, std::int64_t lane_stride, std::int64_t lanes, std::int64_t kc,
                int width, float* out) {
  constexpr std::int64_t kSteps = 16;
  for (int l = 0; l < width; l += 16) {
    const std::int64_t rows = std::clamp<std::int64_t>(lanes - l, 0, 16);
    const __mmask16 store = first16(width - l);
    const float* lane0 = src + l * lane_stride;
    for (std::int64_t p = 0; p < kc; p += kSteps) {
      const std::int64_t steps = std::min(kSteps, kc - p);
      const __mmask16 in = first16(steps);
      if (p + kSteps < kc)
        prefetch_rows(reinterpret_cast<const char*>(lane0 + p + 4 * kSteps),
                      lane_stride * std::int64_t{sizeof(float)}, rows);
      __m512i r[16];
      for (int i = 0; i < 16; ++i)
        r[i] = i < rows
                   ? _mm512_castps_si512(_mm512_maskz_loadu_ps(in, lane0 + i * lane_stride + p))
                   : _mm512_setzero_si512();
      transpose16(r);
      for (std::int64_t q = 0; q < steps; ++q)
        _mm512_mask_storeu_ps(out + (p + q) * width + l, store, _mm512_castsi512_ps(r[q]));
    }
  }
}

void pack_lanes(const double* src, std::int64_t lane_stride, std::int64_t lanes, std::int64_t kc,
                int width, double* out) {
  constexpr std::int64_t kSteps = 8;
  for (int l = 0; l < width; l += 8) {
    const std::int64_t rows = std::clamp<std::int64_t>(lanes - l, 0, 8);
    const __mmask8 store = first8(width - l);
    const double* lane0 = src + l * lane_stride;
    for (std::int64_t p = 0; p < kc; p += kSteps) {
      const std::int64_t steps = std::min(kSteps, kc - p);
      const __mmask8 in = first8(steps);
      if (p + kSteps < kc)
        prefetch_rows(reinterpret_cast<const char*>(lane0 + p + 8 * kSteps),
                      lane_stride * std::int64_t{sizeof(double)}, rows);
      __m512d r[8];
      for (int i = 0; i < 8; ++i)
        r[i] =
            i < rows ? _mm512_maskz_loadu_pd(in, lane0 + i * lane_stride + p) : _mm512_setzero_pd();
      transpose8(r);
      for (std::int64_t q = 0; q < steps; ++q)
        _mm512_mask_storeu_pd(out + (p + q) * width + l, store, r[q]);
    }
  }
}

}  // namespace

template <typename T>
void pack_panel_avx512(const T* src, std::int64_t lane_stride, std::int64_t k_stride,
                       std::int64_t lanes, std::int64_t kc, int width, T* out) {
  if (k_stride == 1 && lanes <= width)
    pack_lanes(src, lane_stride, lanes, kc, width, out);
  else
    pack_panel(src, lane_stride, k_stride, lanes, kc, width, out);
}

template void pack_panel_avx512<float>(const float*, std::int64_t, std::int64_t, std::int64_t,
                                       std::int64_t, int, float*);
template void pack_panel_avx512<double>(const double*, std::int64_t, std::int64_t, std::int64_t,
                                        std::int64_t, int, double*);

}  // namespace ridgeline::packed
