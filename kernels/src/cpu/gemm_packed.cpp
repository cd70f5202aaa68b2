// Rung 4 (and 5 with OpenMP): BLIS-style GEMM, the packed driver (packed_gemm.hpp) with the
// micro-kernels of the ISA the backend names. The AVX-512 rungs also run bf16 (C in f32)
// where the CPU has AVX512_BF16: the bf16 micro-kernel (vdpbf16ps) over the same driver; and
// i8 (C in i32) where it has AVX512_VNNI (vpdpbusd), for CPUs without AMX.
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
    std::vector<DType> dtypes{DType::f32, DType::f64};
    std::string kernels = fmt::format("{} / {}", uk32_.name, uk64_.name);
    if (isa == PackedIsa::avx512) {
      ukbf16_ = packed::microkernel_bf16_avx512();
      dtypes.push_back(DType::bf16);
      kernels += fmt::format(" / {} (AVX512_BF16)", ukbf16_.name);
      uki8_ = packed::microkernel_i8_avx512();
      dtypes.push_back(DType::i8);
      kernels += fmt::format(" / {} (AVX512_VNNI)", uki8_.name);
    }
    info_ = {"gemm",
             fmt::format("cpu.packed_{}{}", isa_name, threaded ? "_omp" : ""),
             Device::cpu,
             dtypes,
             threaded,
             fmt::format("BLIS-style packed panels, {} micro-kernels{}", kernels,
                         threaded ? ", OpenMP over blocks of A" : "")};
  }

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    const CpuFeatures& cpu = cpu_features();
    if (isa_ == PackedIsa::avx512 && !cpu.has_avx512())
      return Support::no(info_.id() + " needs AVX-512 (F, DQ, BW, VL), which this CPU lacks");
    if (isa_ == PackedIsa::avx2 && !cpu.has_avx2_fma())
      return Support::no(info_.id() + " needs AVX2 and FMA, which this CPU lacks");
    if (isa_ == PackedIsa::avx512 && problem.op == info_.op && problem.dtype == DType::bf16 &&
        !cpu.avx512_bf16)
      return Support::no(info_.id() + ": bf16 needs AVX512_BF16 (vdpbf16ps), which this CPU lacks");
    if (isa_ == PackedIsa::avx512 && problem.op == info_.op && problem.dtype == DType::i8 &&
        !cpu.avx512_vnni)
      return Support::no(info_.id() + ": i8 needs AVX512_VNNI (vpdpbusd), which this CPU lacks");
    return check_gemm_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    dtype_ = problem.dtype;
    if (dtype_ == DType::f32) {
      f32_.prepare(cpu::gemm_args<float>(problem, gemm_view(operands)), uk32_,
                   packed::derive_blocking(cache_sizes(), uk32_.mr, uk32_.nr, 4), threads);
    } else if (dtype_ == DType::bf16) {
      bf16_.prepare(cpu::gemm_args<std::uint16_t, float>(problem, gemm_view(operands)), ukbf16_,
                    packed::derive_blocking(cache_sizes(), ukbf16_.mr, ukbf16_.nr, 2), threads);
    } else if (dtype_ == DType::i8) {
      i8_.prepare(cpu::gemm_args<std::int8_t, std::int32_t>(problem, gemm_view(operands)), uki8_,
                  packed::blocking_for(uki8_, cache_sizes()), threads);
    } else {
      f64_.prepare(cpu::gemm_args<double>(problem, gemm_view(operands)), uk64_,
                   packed::derive_blocking(cache_sizes(), uk64_.mr, uk64_.nr, 8), threads);
    }
  }

  void run() override {
    if (dtype_ == DType::f32)
      f32_.run();
    else if (dtype_ == DType::bf16)
      bf16_.run();
    else if (dtype_ == DType::i8)
      i8_.run();
    else
      f64_.run();
  }

  std::map<std::string, std::string> notes() const override {
    const auto [name, blocking] = dtype_ == DType::f32 ? std::pair(uk32_.name, f32_.blocking())
                                  : dtype_ == DType::bf16
                                      ? std::pair(ukbf16_.name, bf16_.blocking())
                                  : dtype_ == DType::i8 ? std::pair(uki8_.name, i8_.blocking())
                                                        : std::pair(uk64_.name, f64_.blocking());
    return {
        {"microkernel", name}, {"blocking", blocking.describe()}, {"caches", cache_sizes().source}};
  }

 private:
  PackedIsa isa_;
  KernelInfo info_;
  MicroKernel<float> uk32_;
  MicroKernel<double> uk64_;
  MicroKernel<std::uint16_t, float> ukbf16_{};
  MicroKernel<std::int8_t, std::int32_t> uki8_{};
  DType dtype_ = DType::f32;
  PackedGemm<float> f32_;
  PackedGemm<double> f64_;
  PackedGemm<std::uint16_t, float> bf16_;
  PackedGemm<std::int8_t, std::int32_t> i8_;
};

}  // namespace

std::unique_ptr<Kernel> make_packed_gemm(PackedIsa isa, bool threaded) {
  return std::make_unique<PackedGemmKernel>(isa, threaded);
}

}  // namespace ridgeline
