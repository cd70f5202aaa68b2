// The permute's AVX-512 tiles (permute_blocks.hpp): 16 x 16 (f32) or 8 x 8 (f64) blocks, so
// each row a block loads and each row it stores is one whole 64-byte line: no line is touched
// twice, whatever the strides do to L1's sets. The edges go to the AVX2 tile.
#include <immintrin.h>

#include <cstdint>

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

}  // namespace

void transpose_tile_avx512(const float* in, std::int64_t si, float* out, std::int64_t so,
                           std::int64_t ex, std::int64_t ey, bool stream) {
  tile(in, si, out, so, ex, ey, stream);
}
void transpose_tile_avx512(const double* in, std::int64_t si, double* out, std::int64_t so,
                           std::int64_t ex, std::int64_t ey, bool stream) {
  tile(in, si, out, so, ex, ey, stream);
}

}  // namespace ridgeline::permute
