// The permute's AVX-512 tiles (permute_blocks.hpp): 16 x 16 (f32) or 8 x 8 (f64) blocks, so
// each row a block loads and each row it stores is one whole 64-byte line: no line is touched
// twice, whatever the strides do to L1's sets. The edges go to the AVX2 tile.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "../cpu/transpose_avx512.hpp"
#include "permute_blocks.hpp"

namespace ridgeline::permute {

namespace {

inline void store(float* p, __m512 v, bool stream) {
  if (stream)
    _mm512_stream_ps(p, v);
  else
    _mm512_storeu_ps(p, v);
}
inline void store(double* p, __m512d v, bool stream) {
  if (stream)
    _mm512_stream_pd(p, v);
  else
    _mm512_storeu_pd(p, v);
}

// out[i * so + j] = in[i + j * si] for i, j < 16 (f32) or 8 (f64): the packing's in-register
// transpose (transpose_avx512.hpp), each row a whole line in and out.
inline void block(const float* in, std::int64_t si, float* out, std::int64_t so, bool stream) {
  __m512 r[16];
  for (int j = 0; j < 16; ++j) r[j] = _mm512_loadu_ps(in + j * si);
  packed::transpose(r);
  for (int i = 0; i < 16; ++i) store(out + i * so, r[i], stream);
}
inline void block(const double* in, std::int64_t si, double* out, std::int64_t so, bool stream) {
  __m512d r[8];
  for (int j = 0; j < 8; ++j) r[j] = _mm512_loadu_pd(in + j * si);
  packed::transpose(r);
  for (int i = 0; i < 8; ++i) store(out + i * so, r[i], stream);
}

template <typename T>
void tile(const T* in, std::int64_t si, T* out, std::int64_t so, std::int64_t ex, std::int64_t ey,
          bool stream) {
  constexpr std::int64_t L = 64 / sizeof(T);
  stream = stream && so * static_cast<std::int64_t>(sizeof(T)) % 64 == 0;
  const std::int64_t xv = ex / L * L, yv = ey / L * L;
  for (std::int64_t i = 0; i < xv; i += L)
    for (std::int64_t j = 0; j < yv; j += L) {
      T* o = out + i * so + j;
      block(in + i + j * si, si, o, so, stream && reinterpret_cast<std::uintptr_t>(o) % 64 == 0);
    }
  if (yv < ey) transpose_tile_avx2(in + yv * si, si, out + yv, so, xv, ey - yv);
  if (xv < ex) transpose_tile_avx2(in + xv, si, out + xv * so, so, ex - xv, ey);
}

// Four rows of four 16-byte lanes (or two of two 32-byte halves) transposed.
inline void lane_block(const char* in, std::int64_t si, char* out, std::int64_t so, int run_bytes) {
  if (run_bytes == 16) {
    __m512i r[4];
    for (int j = 0; j < 4; ++j) r[j] = _mm512_loadu_si512(in + j * si);
    const __m512i t0 = _mm512_shuffle_i64x2(r[0], r[1], 0x44);  // r0.0 r0.1 r1.0 r1.1
    const __m512i t1 = _mm512_shuffle_i64x2(r[0], r[1], 0xEE);  // r0.2 r0.3 r1.2 r1.3
    const __m512i t2 = _mm512_shuffle_i64x2(r[2], r[3], 0x44);
    const __m512i t3 = _mm512_shuffle_i64x2(r[2], r[3], 0xEE);
    _mm512_storeu_si512(out, _mm512_shuffle_i64x2(t0, t2, 0x88));  // lane 0 of each row
    _mm512_storeu_si512(out + so, _mm512_shuffle_i64x2(t0, t2, 0xDD));
    _mm512_storeu_si512(out + 2 * so, _mm512_shuffle_i64x2(t1, t3, 0x88));
    _mm512_storeu_si512(out + 3 * so, _mm512_shuffle_i64x2(t1, t3, 0xDD));
  } else {
    const __m512i r0 = _mm512_loadu_si512(in), r1 = _mm512_loadu_si512(in + si);
    _mm512_storeu_si512(out, _mm512_shuffle_i64x2(r0, r1, 0x44));  // both lower halves
    _mm512_storeu_si512(out + so, _mm512_shuffle_i64x2(r0, r1, 0xEE));
  }
}

}  // namespace

void transpose_runs_avx512(const char* in, std::int64_t si, char* out, std::int64_t so,
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

void transpose_tile_avx512(const float* in, std::int64_t si, float* out, std::int64_t so,
                           std::int64_t ex, std::int64_t ey, bool stream) {
  tile(in, si, out, so, ex, ey, stream);
}
void transpose_tile_avx512(const double* in, std::int64_t si, double* out, std::int64_t so,
                           std::int64_t ex, std::int64_t ey, bool stream) {
  tile(in, si, out, so, ex, ey, stream);
}

}  // namespace ridgeline::permute
