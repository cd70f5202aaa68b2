#pragma once
// The inner loops of the permute (einsum_permute.cpp), one translation unit per instruction
// set: a tile of a 2-d transpose and a run copied whole, each with regular or streaming
// (non-temporal) stores. The caller picks the tile's shape for the ISA (permute_tiling) and
// whether to stream; these only move the bytes. The build's baseline ISA has a tile and a
// run transpose of its own (the _baseline names): AVX2 on x86-64 (permute_blocks_avx2.cpp),
// NEON on AArch64 (permute_blocks_neon.cpp, cached stores only); AVX-512 is x86's alone.
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstdint>

namespace ridgeline::permute {

#if defined(__x86_64__)

// out[i * so + j] = in[i + j * si] for i < ex, j < ey: the input's stride-1 index i becomes
// the output's row.
// AVX2: 8 x 8 (f32) or 4 x 4 (f64) blocks in registers, half a line per row. A whole tile
// of 128 x 128 bytes is staged (avx2_tile_staged): its blocks go to a buffer in L1 and each
// output row leaves it as whole lines, streamed where `stream` (HPTT's macro-kernel does the
// same); other tiles store the blocks' half lines through the cache (streamed half lines
// ran an f32 1024 x 1024 transpose at half the speed on the Zen 4 VM). `stream` needs the
// output's rows to start on lines; the caller fences after its loop.
void transpose_tile_avx2(const float* in, std::int64_t si, float* out, std::int64_t so,
                         std::int64_t ex, std::int64_t ey, bool stream = false);
void transpose_tile_avx2(const double* in, std::int64_t si, double* out, std::int64_t so,
                         std::int64_t ex, std::int64_t ey, bool stream = false);
// Whether the AVX2 tiles are staged, which also has the caller walk them in the input's
// order: where the stores stream. Measured on the Zen 4 VM with the AVX2 path forced
// (docs/einsum.md): staged, streamed and in the input's order, transposes of 32-64 MiB ran
// 1.5-2.5x the cached tiles in the output's order; from cache (not streamed) staging ran
// no faster, within this VM's swing.
constexpr bool avx2_tile_staged(bool stream) {
  return stream;
}
// AVX-512: 16 x 16 (f32) or 8 x 8 (f64) blocks, a whole 64-byte line per row read and
// written; streaming stores where a block's rows are aligned lines (the edges go to the
// AVX2 tile, cached); the caller fences after its loop.
void transpose_tile_avx512(const float* in, std::int64_t si, float* out, std::int64_t so,
                           std::int64_t ex, std::int64_t ey, bool stream);
void transpose_tile_avx512(const double* in, std::int64_t si, double* out, std::int64_t so,
                           std::int64_t ex, std::int64_t ey, bool stream);

// Runs of 16 or 32 bytes (`run_bytes`) transposed as elements: out + i * so + j * run_bytes
// := in + i * run_bytes + j * si for i < eu, j < ev (strides in bytes), in 4 x 4 (16-byte)
// or 2 x 2 (32-byte) blocks of lanes, so each row a block loads or stores is one whole
// 64-byte line; the edges run by run. Lanes only move between registers, so AVX2 does it as
// fast as AVX-512 did (Zen 4, 2026-11-28); cached stores.
void transpose_runs_avx2(const char* in, std::int64_t si, char* out, std::int64_t so,
                         std::int64_t eu, std::int64_t ev, int run_bytes);

// out[0, n) = in[0, n); streamed (AVX2, the build's baseline) from the first 32-byte aligned
// element of out. Inline: a call per run of a few hundred bytes costs more than the copy.
template <typename T>
inline void copy_run(const T* in, T* out, std::int64_t n, bool stream) {
  constexpr std::int64_t V = 32 / sizeof(T);
  std::int64_t k = 0;
  if (stream) {
    for (; k < n && reinterpret_cast<std::uintptr_t>(out + k) % 32 != 0; ++k) out[k] = in[k];
    for (; k + V <= n; k += V) {
      if constexpr (sizeof(T) == 4)
        _mm256_stream_ps(out + k, _mm256_loadu_ps(in + k));
      else
        _mm256_stream_pd(out + k, _mm256_loadu_pd(in + k));
    }
  }
#pragma omp simd
  for (std::int64_t m = k; m < n; ++m) out[m] = in[m];
}

// The baseline's blocks, and the fence after streamed stores.
template <typename T>
inline void transpose_tile_baseline(const T* in, std::int64_t si, T* out, std::int64_t so,
                                    std::int64_t ex, std::int64_t ey, bool stream) {
  transpose_tile_avx2(in, si, out, so, ex, ey, stream);
}
inline void transpose_runs_baseline(const char* in, std::int64_t si, char* out, std::int64_t so,
                                    std::int64_t eu, std::int64_t ev, int run_bytes) {
  transpose_runs_avx2(in, si, out, so, eu, ev, run_bytes);
}
inline void fence_streamed() {
  _mm_sfence();
}
// Whether streaming stores are used at all (x86's non-temporal stores).
inline constexpr bool kStreamingStores = true;

#else  // AArch64

void transpose_tile_baseline(const float* in, std::int64_t si, float* out, std::int64_t so,
                             std::int64_t ex, std::int64_t ey, bool stream);
void transpose_tile_baseline(const double* in, std::int64_t si, double* out, std::int64_t so,
                             std::int64_t ex, std::int64_t ey, bool stream);
void transpose_runs_baseline(const char* in, std::int64_t si, char* out, std::int64_t so,
                             std::int64_t eu, std::int64_t ev, int run_bytes);
constexpr bool avx2_tile_staged(bool) {
  return false;
}
template <typename T>
inline void copy_run(const T* in, T* out, std::int64_t n, bool) {
#pragma omp simd
  for (std::int64_t m = 0; m < n; ++m) out[m] = in[m];
}
inline void fence_streamed() {}
inline constexpr bool kStreamingStores = false;
// Never called: PermuteOptions::avx512 is false on AArch64 (no such CPU feature there).
template <typename T>
inline void transpose_tile_avx512(const T*, std::int64_t, T*, std::int64_t, std::int64_t,
                                  std::int64_t, bool) {}

#endif

}  // namespace ridgeline::permute
