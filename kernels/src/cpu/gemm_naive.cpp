// Rung 1: the textbook triple loop, i-j-k. The inner loop walks B down a column, one
// cache line per FLOP pair; this is the floor the ladder climbs from.
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "simple_gemm_kernel.hpp"

namespace ridgeline {

namespace {
template <typename T>
void gemm_naive(const cpu::GemmArgs<T>& g) {
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t j = 0; j < g.n; ++j) {
      T acc = 0;
      for (std::int64_t p = 0; p < g.k; ++p) acc += g.at_a(i, p) * g.at_b(p, j);
      g.c[i * g.n + j] = acc;
    }
}
}  // namespace

std::unique_ptr<Kernel> make_naive_gemm() {
  KernelInfo info{"gemm",      "cpu.naive",
                  Device::cpu, {DType::f32, DType::f64},
                  false,       "i-j-k triple loop, scalar, every layout"};
  return std::make_unique<cpu::SimpleGemmKernel>(info, &gemm_naive<float>, &gemm_naive<double>,
                                                 false, "scalar");
}

}  // namespace ridgeline
