// Rung 2: loops reordered to i-k-j, so the inner loop streams a row of B and a row of C
// with unit stride and the compiler vectorises it. Built for AVX-512 and AVX2 with
// target_clones, the loader picking the clone the CPU runs; for NEON on AArch64.
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "simple_gemm_kernel.hpp"

namespace ridgeline {

namespace cpu {
std::string autovectorised_isa_note() {
#if defined(__x86_64__)
  return cpu_features().has_avx512() ? "x86-64-v4 (AVX-512, compiler-vectorised)"
                                     : "x86-64-v3 (AVX2, compiler-vectorised)";
#else
  return "armv8-a (NEON, compiler-vectorised)";
#endif
}
}  // namespace cpu

namespace {
template <typename T>
[[gnu::always_inline]] inline void gemm_ikj(const cpu::GemmArgs<T>& g) {
  for (std::int64_t i = 0; i < g.m; ++i) {
    T* __restrict c = g.c + i * g.n;
    for (std::int64_t j = 0; j < g.n; ++j) c[j] = 0;
    for (std::int64_t p = 0; p < g.k; ++p) {
      const T a = g.at_a(i, p);
      const T* __restrict b = g.b + p * g.ldb;
      for (std::int64_t j = 0; j < g.n; ++j) c[j] += a * b[j];
    }
  }
}

RIDGELINE_AUTOVECTORISED_CLONES void gemm_reordered_f32(const cpu::GemmArgs<float>& g) {
  gemm_ikj(g);
}
RIDGELINE_AUTOVECTORISED_CLONES void gemm_reordered_f64(const cpu::GemmArgs<double>& g) {
  gemm_ikj(g);
}
}  // namespace

std::unique_ptr<Kernel> make_reordered_gemm() {
  KernelInfo info{
      "gemm",      "cpu.reordered",
      Device::cpu, {DType::f32, DType::f64},
      false,       "i-k-j loop order, compiler-vectorised inner loop, NN and TN layouts"};
  return std::make_unique<cpu::SimpleGemmKernel>(info, &gemm_reordered_f32, &gemm_reordered_f64,
                                                 true, cpu::autovectorised_isa_note());
}

}  // namespace ridgeline
