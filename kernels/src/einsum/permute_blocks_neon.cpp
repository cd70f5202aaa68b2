// The permute's AArch64 blocks (permute_blocks.hpp), in the build's baseline (NEON). Cached
// stores only: AArch64 has no streaming store a tile could use as x86's do (STNP is a hint
// the cores may ignore), so permute_options() never asks to stream here.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "permute_blocks.hpp"

namespace ridgeline::permute {

namespace {

// out[i * so + j] = in[i + j * si] for a 4 x 4 (f32) or 2 x 2 (f64) block, in registers:
// four (two) loads along the input's stride-1 index, TRN1/TRN2 and ZIP on 64-bit halves,
// four (two) stores along the output's.
inline void block(const float* in, std::int64_t si, float* out, std::int64_t so) {
  const float32x4_t r0 = vld1q_f32(in), r1 = vld1q_f32(in + si);
  const float32x4_t r2 = vld1q_f32(in + 2 * si), r3 = vld1q_f32(in + 3 * si);
  const float32x4_t t0 = vtrn1q_f32(r0, r1), t1 = vtrn2q_f32(r0, r1);
  const float32x4_t t2 = vtrn1q_f32(r2, r3), t3 = vtrn2q_f32(r2, r3);
  const auto lo = [](float32x4_t a, float32x4_t b) {
    return vreinterpretq_f32_f64(vzip1q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
  };
  const auto hi = [](float32x4_t a, float32x4_t b) {
    return vreinterpretq_f32_f64(vzip2q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
  };
  vst1q_f32(out, lo(t0, t2));
  vst1q_f32(out + so, lo(t1, t3));
  vst1q_f32(out + 2 * so, hi(t0, t2));
  vst1q_f32(out + 3 * so, hi(t1, t3));
}
inline void block(const double* in, std::int64_t si, double* out, std::int64_t so) {
  const float64x2_t r0 = vld1q_f64(in), r1 = vld1q_f64(in + si);
  vst1q_f64(out, vzip1q_f64(r0, r1));
  vst1q_f64(out + so, vzip2q_f64(r0, r1));
}

// A tile of at most 128 x 128 bytes (in L1), block by block; the edges element by element.
template <typename T>
void tile(const T* in, std::int64_t si, T* out, std::int64_t so, std::int64_t ex, std::int64_t ey) {
  constexpr std::int64_t V = 16 / sizeof(T);
  const std::int64_t xv = ex / V * V, yv = ey / V * V;
  for (std::int64_t i = 0; i < xv; i += V)
    for (std::int64_t j = 0; j < yv; j += V) block(in + i + j * si, si, out + i * so + j, so);
  for (std::int64_t i = 0; i < ex; ++i) {
    T* dst = out + i * so;
    for (std::int64_t j = i < xv ? yv : 0; j < ey; ++j) dst[j] = in[i + j * si];
  }
}

}  // namespace

// Runs of 16 or 32 bytes moved whole: each is one or two q registers, so a run is the unit
// the registers hold and copying it is all a lane transpose would do.
void transpose_runs_baseline(const char* in, std::int64_t si, char* out, std::int64_t so,
                             std::int64_t eu, std::int64_t ev, int run_bytes) {
  const std::int64_t E = run_bytes;
  for (std::int64_t j = 0; j < ev; ++j)
    for (std::int64_t i = 0; i < eu; ++i)
      std::memcpy(out + i * so + j * E, in + i * E + j * si, static_cast<std::size_t>(E));
}

void transpose_tile_baseline(const float* in, std::int64_t si, float* out, std::int64_t so,
                             std::int64_t ex, std::int64_t ey, bool) {
  tile(in, si, out, so, ex, ey);
}
void transpose_tile_baseline(const double* in, std::int64_t si, double* out, std::int64_t so,
                             std::int64_t ex, std::int64_t ey, bool) {
  tile(in, si, out, so, ex, ey);
}

}  // namespace ridgeline::permute
