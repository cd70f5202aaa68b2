// The permute's AVX2 tiles (permute_blocks.hpp), in the build's baseline ISA.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

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

inline void store_line(float* p, const float* q, bool stream) {
  const __m256 a = _mm256_load_ps(q), b = _mm256_load_ps(q + 8);
  if (stream) {
    _mm256_stream_ps(p, a);
    _mm256_stream_ps(p + 8, b);
  } else {
    _mm256_storeu_ps(p, a);
    _mm256_storeu_ps(p + 8, b);
  }
}
inline void store_line(double* p, const double* q, bool stream) {
  const __m256d a = _mm256_load_pd(q), b = _mm256_load_pd(q + 4);
  if (stream) {
    _mm256_stream_pd(p, a);
    _mm256_stream_pd(p + 4, b);
  } else {
    _mm256_storeu_pd(p, a);
    _mm256_storeu_pd(p + 4, b);
  }
}

// A whole tile of 128 x 128 bytes through a buffer in L1: its blocks transposed into the
// buffer, then each output row stored as two whole lines, so none is left part-written
// between two blocks' half-line stores (which is what made streaming the blocks themselves
// run at half the speed).
template <typename T>
void staged_tile(const T* in, std::int64_t si, T* out, std::int64_t so, bool stream) {
  constexpr std::int64_t V = 32 / sizeof(T), N = 128 / sizeof(T), L = 64 / sizeof(T);
  alignas(64) T buffer[N * N];
  for (std::int64_t i = 0; i < N; i += V)
    for (std::int64_t j = 0; j < N; j += V) block(in + i + j * si, si, buffer + i * N + j, N);
  for (std::int64_t i = 0; i < N; ++i)
    for (std::int64_t k = 0; k < N; k += L)
      store_line(out + i * so + k, buffer + i * N + k, stream);
}

template <typename T>
void tile(const T* in, std::int64_t si, T* out, std::int64_t so, std::int64_t ex, std::int64_t ey,
          bool stream) {
  constexpr std::int64_t N = 128 / sizeof(T);
  const bool lines = so * static_cast<std::int64_t>(sizeof(T)) % 64 == 0 &&
                     reinterpret_cast<std::uintptr_t>(out) % 64 == 0;
  if (avx2_tile_staged(stream) && ex == N && ey == N && lines) {
    staged_tile(in, si, out, so, stream);
    return;
  }
  constexpr std::int64_t V = 32 / sizeof(T);
  const std::int64_t xv = ex / V * V, yv = ey / V * V;
  for (std::int64_t i = 0; i < xv; i += V)
    for (std::int64_t j = 0; j < yv; j += V) block(in + i + j * si, si, out + i * so + j, so);
  for (std::int64_t i = 0; i < ex; ++i) {  // the edges, element by element
    T* dst = out + i * so;
    for (std::int64_t j = i < xv ? yv : 0; j < ey; ++j) dst[j] = in[i + j * si];
  }
}

// Four rows of four 16-byte lanes (each row a line, two ymm), or two rows of two 32-byte
// halves, transposed: lanes moved between registers, no arithmetic.
inline void lane_block(const char* in, std::int64_t si, char* out, std::int64_t so, int run_bytes) {
  const auto load = [](const char* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  };
  const auto store = [](char* p, __m256i v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  };
  if (run_bytes == 32) {
    const __m256i a0 = load(in), a1 = load(in + 32), b0 = load(in + si), b1 = load(in + si + 32);
    store(out, a0);
    store(out + 32, b0);
    store(out + so, a1);
    store(out + so + 32, b1);
    return;
  }
  __m256i lo[4], hi[4];  // row j: lanes 0, 1 and lanes 2, 3
  for (int j = 0; j < 4; ++j) {
    lo[j] = load(in + j * si);
    hi[j] = load(in + j * si + 32);
  }
  // Output row i holds lane i of rows 0..3: rows 0, 1 in its first half, 2, 3 in its second.
  store(out, _mm256_permute2x128_si256(lo[0], lo[1], 0x20));
  store(out + 32, _mm256_permute2x128_si256(lo[2], lo[3], 0x20));
  store(out + so, _mm256_permute2x128_si256(lo[0], lo[1], 0x31));
  store(out + so + 32, _mm256_permute2x128_si256(lo[2], lo[3], 0x31));
  store(out + 2 * so, _mm256_permute2x128_si256(hi[0], hi[1], 0x20));
  store(out + 2 * so + 32, _mm256_permute2x128_si256(hi[2], hi[3], 0x20));
  store(out + 3 * so, _mm256_permute2x128_si256(hi[0], hi[1], 0x31));
  store(out + 3 * so + 32, _mm256_permute2x128_si256(hi[2], hi[3], 0x31));
}

}  // namespace

void transpose_runs_avx2(const char* in, std::int64_t si, char* out, std::int64_t so,
                         std::int64_t eu, std::int64_t ev, int run_bytes) {
  const std::int64_t L = 64 / run_bytes, E = run_bytes;
  const std::int64_t uv = eu / L * L, vv = ev / L * L;
  for (std::int64_t j = 0; j < vv; j += L)
    for (std::int64_t i = 0; i < uv; i += L)
      lane_block(in + i * E + j * si, si, out + i * so + j * E, so, run_bytes);
  for (std::int64_t i = 0; i < eu; ++i)  // the edges, run by run
    for (std::int64_t j = i < uv ? vv : 0; j < ev; ++j)
      std::memcpy(out + i * so + j * E, in + i * E + j * si, static_cast<std::size_t>(E));
}

void transpose_tile_avx2(const float* in, std::int64_t si, float* out, std::int64_t so,
                         std::int64_t ex, std::int64_t ey, bool stream) {
  tile(in, si, out, so, ex, ey, stream);
}
void transpose_tile_avx2(const double* in, std::int64_t si, double* out, std::int64_t so,
                         std::int64_t ex, std::int64_t ey, bool stream) {
  tile(in, si, out, so, ex, ey, stream);
}

}  // namespace ridgeline::permute
