// The permute's AVX2 tiles (permute_blocks.hpp), in the build's baseline ISA.
#include <immintrin.h>

#include <cstdint>

#include "permute_blocks.hpp"

namespace ridgeline::permute {

namespace {

// out[i * so + j] = in[i + j * si] for an 8 x 8 (f32) or 4 x 4 (f64) block, in registers:
// eight (four) loads along the input's stride-1 index, the transpose, eight (four) stores
// along the output's.
inline void block(const float* in, std::int64_t si, float* out, std::int64_t so) {
  __m256 r[8], t[8];
  for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_ps(in + j * si);
  for (int j = 0; j < 8; j += 2) {
    t[j] = _mm256_unpacklo_ps(r[j], r[j + 1]);
    t[j + 1] = _mm256_unpackhi_ps(r[j], r[j + 1]);
  }
  for (int g = 0; g < 8; g += 4) {
    r[g] = _mm256_shuffle_ps(t[g], t[g + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[g + 1] = _mm256_shuffle_ps(t[g], t[g + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[g + 2] = _mm256_shuffle_ps(t[g + 1], t[g + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[g + 3] = _mm256_shuffle_ps(t[g + 1], t[g + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    _mm256_storeu_ps(out + i * so, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(out + (i + 4) * so, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}
inline void block(const double* in, std::int64_t si, double* out, std::int64_t so) {
  __m256d r[4];
  for (int j = 0; j < 4; ++j) r[j] = _mm256_loadu_pd(in + j * si);
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
  const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  _mm256_storeu_pd(out, _mm256_permute2f128_pd(t0, t2, 0x20));
  _mm256_storeu_pd(out + so, _mm256_permute2f128_pd(t1, t3, 0x20));
  _mm256_storeu_pd(out + 2 * so, _mm256_permute2f128_pd(t0, t2, 0x31));
  _mm256_storeu_pd(out + 3 * so, _mm256_permute2f128_pd(t1, t3, 0x31));
}

template <typename T>
void tile(const T* in, std::int64_t si, T* out, std::int64_t so, std::int64_t ex, std::int64_t ey) {
  constexpr std::int64_t V = 32 / sizeof(T);
  const std::int64_t xv = ex / V * V, yv = ey / V * V;
  for (std::int64_t i = 0; i < xv; i += V)
    for (std::int64_t j = 0; j < yv; j += V) block(in + i + j * si, si, out + i * so + j, so);
  for (std::int64_t i = 0; i < ex; ++i) {  // the edges, element by element
    T* dst = out + i * so;
    for (std::int64_t j = i < xv ? yv : 0; j < ey; ++j) dst[j] = in[i + j * si];
  }
}

}  // namespace

void transpose_tile_avx2(const float* in, std::int64_t si, float* out, std::int64_t so,
                         std::int64_t ex, std::int64_t ey) {
  tile(in, si, out, so, ex, ey);
}
void transpose_tile_avx2(const double* in, std::int64_t si, double* out, std::int64_t so,
                         std::int64_t ex, std::int64_t ey) {
  tile(in, si, out, so, ex, ey);
}

}  // namespace ridgeline::permute
