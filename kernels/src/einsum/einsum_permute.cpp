#include "einsum_permute.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <vector>

#include "einsum_strides.hpp"

namespace ridgeline {

namespace {

// The output's indices other than the ones a kernel walks itself: extent and stride in the
// input and the output, to turn a flat position into the two offsets.
struct Outer {
  std::vector<std::int64_t> extent, in, out;
  void offsets(std::int64_t o, std::int64_t& in_at, std::int64_t& out_at) const {
    in_at = out_at = 0;
    for (std::size_t d = extent.size(); d-- > 0;) {
      const std::int64_t i = o % extent[d];
      o /= extent[d];
      in_at += i * in[d];
      out_at += i * out[d];
    }
  }
};

// out[i * so + j] = in[i + j * si] for an 8 x 8 (f32) or 4 x 4 (f64) block, in registers:
// eight (four) loads along the input's stride-1 index, the AVX2 transpose, eight (four)
// stores along the output's.
inline void block_transpose(const float* in, std::int64_t si, float* out, std::int64_t so) {
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
inline void block_transpose(const double* in, std::int64_t si, double* out, std::int64_t so) {
  __m256d r[4];
  for (int j = 0; j < 4; ++j) r[j] = _mm256_loadu_pd(in + j * si);
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
  const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  _mm256_storeu_pd(out, _mm256_permute2f128_pd(t0, t2, 0x20));
  _mm256_storeu_pd(out + so, _mm256_permute2f128_pd(t1, t3, 0x20));
  _mm256_storeu_pd(out + 2 * so, _mm256_permute2f128_pd(t0, t2, 0x31));
  _mm256_storeu_pd(out + 3 * so, _mm256_permute2f128_pd(t1, t3, 0x31));
}

}  // namespace

template <typename T>
void einsum_permute(const EinsumSpec& s, const std::string& from, const T* in,
                    const std::string& to, T* out, int threads) {
  const std::size_t n = to.size();
  if (n == 0) {
    out[0] = in[0];
    return;
  }
  std::vector<std::int64_t> ext(n), is(n), os(n);
  std::int64_t total = 1;
  for (std::size_t d = n; d-- > 0;) {
    ext[d] = s.extents.at(to[d]);
    os[d] = total;
    total *= ext[d];
    is[d] = stride_of(from, to[d], s);
  }
  const std::size_t x = to.find(from.back()), y = n - 1;  // stride 1 in the input, the output

  if (x == y) {  // the last index stays last: runs of it copied whole
    // The index before it walked in a loop of its own: one offset computation per row of
    // runs, not per run.
    const std::int64_t run = ext[y];
    const std::int64_t inner = n >= 2 ? ext[n - 2] : 1, in_step = n >= 2 ? is[n - 2] : 0;
    Outer outer;
    for (std::size_t d = 0; d + 2 < n; ++d) {
      outer.extent.push_back(ext[d]);
      outer.in.push_back(is[d]);
      outer.out.push_back(os[d]);
    }
    const std::int64_t rows = total / (run * inner);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) {
      std::int64_t in_at = 0, out_at = 0;
      outer.offsets(r, in_at, out_at);
      for (std::int64_t i = 0; i < inner; ++i) {
        // Inline: a call to memcpy per run of a few hundred bytes cost more than the copy.
        const T* src = in + in_at + i * in_step;
        T* dst = out + out_at + i * run;
#pragma omp simd
        for (std::int64_t k = 0; k < run; ++k) dst[k] = src[k];
      }
    }
    return;
  }

  Outer outer;
  for (std::size_t d = 0; d < n; ++d)
    if (d != x && d != y) {
      outer.extent.push_back(ext[d]);
      outer.in.push_back(is[d]);
      outer.out.push_back(os[d]);
    }
  // Tiles of 128 bytes by 128 bytes over (x, y): each read and written line whole, the tile
  // in L1; inside, V x V blocks transposed in registers, the edges element by element.
  constexpr std::int64_t B = 128 / sizeof(T), V = 32 / sizeof(T);
  const std::int64_t ex = ext[x], ey = ext[y], sy = is[y], sx = os[x];
  const std::int64_t tx = (ex + B - 1) / B, ty = (ey + B - 1) / B;
  const std::int64_t tiles = total / (ex * ey) * tx * ty;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t t = 0; t < tiles; ++t) {
    std::int64_t in_at = 0, out_at = 0;
    outer.offsets(t / (tx * ty), in_at, out_at);
    const std::int64_t x0 = (t % (tx * ty)) / ty * B, y0 = t % ty * B;
    const std::int64_t x1 = std::min(ex, x0 + B), y1 = std::min(ey, y0 + B);
    const std::int64_t xv = x0 + (x1 - x0) / V * V, yv = y0 + (y1 - y0) / V * V;
    for (std::int64_t i = x0; i < xv; i += V)
      for (std::int64_t j = y0; j < yv; j += V)
        block_transpose(in + in_at + i + j * sy, sy, out + out_at + i * sx + j, sx);
    for (std::int64_t i = x0; i < x1; ++i) {
      const T* src = in + in_at + i;  // x at stride 1 in the input
      T* dst = out + out_at + i * sx;
      for (std::int64_t j = i < xv ? yv : y0; j < y1; ++j) dst[j] = src[j * sy];
    }
  }
}

template void einsum_permute<float>(const EinsumSpec&, const std::string&, const float*,
                                    const std::string&, float*, int);
template void einsum_permute<double>(const EinsumSpec&, const std::string&, const double*,
                                     const std::string&, double*, int);

}  // namespace ridgeline
