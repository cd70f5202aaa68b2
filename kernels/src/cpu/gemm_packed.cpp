// Rung 4 (and 5 with OpenMP): BLIS-style GEMM, the packed driver (packed_gemm.hpp) with the
// micro-kernels of the ISA the backend names.
#include <fmt/format.h>

#include "packed_gemm.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

using packed::MicroKernel;
using packed::PackedGemm;

class PackedGemmKernel : public Kernel {
 public:
  PackedGemmKernel(PackedIsa isa, bool threaded) : isa_(isa) {
    const char* isa_name = isa == PackedIsa::avx512 ? "avx512" : "avx2";
    uk32_ = isa == PackedIsa::avx512 ? packed::microkernel_f32_avx512()
                                     : packed::microkernel_f32_avx2();
    uk64_ = isa == PackedIsa::avx512 ? packed::microkernel_f64_avx512()
                                     : packed::microkernel_f64_avx2();
    info_ = {"gemm",
             fmt::format("cpu.packed_{}{}", isa_name, threaded ? "_omp" : ""),
             "cpu",
             {DType::f32, DType::f64},
             threaded,
             fmt::format("BLIS-style packed panels, {} / {} micro-kernels{}", uk32_.name,
                         uk64_.name, threaded ? ", OpenMP over blocks of A" : "")};
  }

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    const CpuFeatures& cpu = cpu_features();
    if (isa_ == PackedIsa::avx512 && !cpu.has_avx512())
      return Support::no(info_.id() + " needs AVX-512 (F, DQ, BW, VL), which this CPU lacks");
    if (isa_ == PackedIsa::avx2 && !cpu.has_avx2_fma())
      return Support::no(info_.id() + " needs AVX2 and FMA, which this CPU lacks");
    return check_common_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    dtype_ = problem.dtype;
    if (dtype_ == DType::f32) {
      f32_.prepare(cpu::gemm_args<float>(problem, gemm_view(operands)), uk32_,
                   packed::derive_blocking(cache_sizes(), uk32_.mr, uk32_.nr, 4), threads);
    } else {
      f64_.prepare(cpu::gemm_args<double>(problem, gemm_view(operands)), uk64_,
                   packed::derive_blocking(cache_sizes(), uk64_.mr, uk64_.nr, 8), threads);
    }
  }

  void run() override {
    if (dtype_ == DType::f32)
      f32_.run();
    else
      f64_.run();
  }

  std::map<std::string, std::string> notes() const override {
    const bool f32 = dtype_ == DType::f32;
    return {{"microkernel", f32 ? uk32_.name : uk64_.name},
            {"blocking", f32 ? f32_.blocking().describe() : f64_.blocking().describe()},
            {"caches", cache_sizes().source}};
  }

 private:
  PackedIsa isa_;
  KernelInfo info_;
  MicroKernel<float> uk32_;
  MicroKernel<double> uk64_;
  DType dtype_ = DType::f32;
  PackedGemm<float> f32_;
  PackedGemm<double> f64_;
};

}  // namespace

std::unique_ptr<Kernel> make_packed_gemm(PackedIsa isa, bool threaded) {
  return std::make_unique<PackedGemmKernel>(isa, threaded);
}

}  // namespace ridgeline
