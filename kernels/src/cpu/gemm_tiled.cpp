// Rung 3: the i-k-j loop nest blocked into tiles so a tile of B stays in L2 while every
// row of the C tile passes over it, and a row segment of C stays in L1. Tile sizes come
// from the measured cache sizes.
#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "simple_gemm_kernel.hpp"

namespace ridgeline {

namespace {
struct Tiles {
  std::int64_t nb, kb, mb;
};

template <typename T>
Tiles tiles_for() {
  const CacheSizes& cs = cache_sizes();
  // A C row segment plus a B row segment take a quarter of L1.
  std::int64_t nb = std::max<std::int64_t>(64, cs.l1d / 4 / (2 * sizeof(T)) / 16 * 16);
  // The B tile (kb x nb) takes half of L2.
  std::int64_t kb = std::max<std::int64_t>(16, cs.l2 / 2 / (nb * sizeof(T)) / 16 * 16);
  return {nb, kb, 64};
}

template <typename T>
[[gnu::always_inline]] inline void gemm_tiled(const cpu::GemmArgs<T>& g) {
  static const Tiles t = tiles_for<T>();
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j) g.c[i * g.n + j] = 0;
  for (std::int64_t jj = 0; jj < g.n; jj += t.nb) {
    const std::int64_t je = std::min(g.n, jj + t.nb);
    for (std::int64_t pp = 0; pp < g.k; pp += t.kb) {
      const std::int64_t pe = std::min(g.k, pp + t.kb);
      for (std::int64_t ii = 0; ii < g.m; ii += t.mb) {
        const std::int64_t ie = std::min(g.m, ii + t.mb);
        for (std::int64_t i = ii; i < ie; ++i) {
          T* __restrict c = g.c + i * g.n;
          for (std::int64_t p = pp; p < pe; ++p) {
            const T a = g.at_a(i, p);
            const T* __restrict b = g.b + p * g.ldb;
            for (std::int64_t j = jj; j < je; ++j) c[j] += a * b[j];
          }
        }
      }
    }
  }
}

RIDGELINE_AUTOVECTORISED_CLONES void gemm_tiled_f32(const cpu::GemmArgs<float>& g) {
  gemm_tiled(g);
}
RIDGELINE_AUTOVECTORISED_CLONES void gemm_tiled_f64(const cpu::GemmArgs<double>& g) {
  gemm_tiled(g);
}
}  // namespace

std::unique_ptr<Kernel> make_tiled_gemm() {
  Tiles t32 = tiles_for<float>(), t64 = tiles_for<double>();
  KernelInfo info{"gemm",
                  "cpu.tiled",
                  Device::cpu,
                  {DType::f32, DType::f64},
                  false,
                  fmt::format("cache-blocked i-k-j (f32 tiles {}x{}x{}, f64 {}x{}x{}), NN and TN",
                              t32.mb, t32.kb, t32.nb, t64.mb, t64.kb, t64.nb)};
  return std::make_unique<cpu::SimpleGemmKernel>(info, &gemm_tiled_f32, &gemm_tiled_f64, true,
                                                 cpu::autovectorised_isa_note());
}

}  // namespace ridgeline
