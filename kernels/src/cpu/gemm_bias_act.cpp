// The CPU kernels of gemm_bias_act, C = act(A * B + bias) (core/src/ops/gemm_bias_act.cpp):
//   cpu.fused    the packed GEMM (packed_gemm.hpp) with an epilogue: the tiles of the last kc
//                block get the bias and the activation in registers, in the micro-kernel's
//                store; C is written once with its final values.
//   cpu.unfused  the same packed GEMM writing C, then a bias pass and an activation pass
//                through C, each OpenMP-parallel and running the epilogue's own vector code
//                (microkernel.hpp: EpiloguePasses): an eager framework's three calls.
// Both run the best ISA CPUID reports (AVX-512, else AVX2) and honour the thread count.
#include <fmt/format.h>

#include <algorithm>

#include "packed_gemm.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

// Elements per unit of work in the unfused passes (64 KiB of C).
constexpr std::int64_t kPassChunk = 16384;

class GemmBiasActKernel : public Kernel {
 public:
  explicit GemmBiasActKernel(bool fused) : fused_(fused) {
    const CpuFeatures& cpu = cpu_features();
    if (cpu.has_avx512()) {
      isa_ = "avx512";
      uk_ = packed::microkernel_f32_avx512();
      passes_ = packed::epilogue_passes_avx512();
    } else if (cpu.has_avx2_fma()) {
      isa_ = "avx2";
      uk_ = packed::microkernel_f32_avx2();
      passes_ = packed::epilogue_passes_avx2();
    }
    info_ = {"gemm_bias_act",
             fused ? "cpu.fused" : "cpu.unfused",
             "cpu",
             {DType::f32},
             true,
             fused ? "packed GEMM, bias and activation applied to the register tile in the "
                     "micro-kernel's store, AVX-512 or AVX2 by CPUID"
                   : "packed GEMM writing C, then a bias pass and an activation pass through "
                     "C (OpenMP, vectorised)",
             fused ? KernelRole::fused : KernelRole::unfused};
  }

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    if (!isa_)
      return Support::no(info_.id() +
                         " needs AVX-512 (F, DQ, BW, VL) or AVX2 and FMA, which this CPU lacks");
    if (problem.op == info_.op && problem.dtype == DType::bf16)
      return Support::no(info_.id() +
                         " computes in f32 only: bf16 needs an AVX512_BF16 micro-kernel and "
                         "packing that converts, not written yet");
    return check_common_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    const cpu::GemmArgs<float> g = cpu::gemm_args<float>(problem, gemm_view(operands));
    c_ = g.c;
    m_ = g.m;
    n_ = g.n;
    bias_ = operands.at("bias").as<float>().data();
    act_ = ops::activation_of(problem);
    threads_ = threads;
    std::optional<packed::Epilogue<float>> epilogue;
    if (fused_) epilogue = packed::Epilogue<float>{bias_, act_};
    gemm_.prepare(g, uk_, packed::derive_blocking(cache_sizes(), uk_.mr, uk_.nr, sizeof(float)),
                  threads, epilogue);
  }

  void run() override {
    gemm_.run();
    if (fused_) return;
    bias_pass();
    activation_pass();
  }

  std::map<std::string, std::string> notes() const override {
    return {{"microkernel", uk_.name},
            {"blocking", gemm_.blocking().describe()},
            {"caches", cache_sizes().source},
            {"isa", isa_ ? isa_ : "none"},
            {"epilogue", fused_ ? fmt::format("bias + {} in the micro-kernel's store of the last "
                                              "kc block",
                                              ops::to_string(act_))
                                : fmt::format("none: the GEMM writes C, then a bias pass and a "
                                              "{} pass through C",
                                              ops::to_string(act_))}};
  }

 private:
  void bias_pass() {
    const std::int64_t rows = std::max<std::int64_t>(1, kPassChunk / n_);
    const std::int64_t chunks = (m_ + rows - 1) / rows;
#pragma omp parallel for num_threads(threads_) schedule(static) if (threads_ > 1)
    for (std::int64_t ch = 0; ch < chunks; ++ch) {
      const std::int64_t r0 = ch * rows;
      passes_.add_bias(c_ + r0 * n_, bias_, std::min(rows, m_ - r0), n_);
    }
  }

  void activation_pass() {
    const std::int64_t total = m_ * n_;
    const std::int64_t chunks = (total + kPassChunk - 1) / kPassChunk;
#pragma omp parallel for num_threads(threads_) schedule(static) if (threads_ > 1)
    for (std::int64_t ch = 0; ch < chunks; ++ch) {
      const std::int64_t e0 = ch * kPassChunk;
      passes_.activate(c_ + e0, std::min(kPassChunk, total - e0), act_);
    }
  }

  bool fused_;
  const char* isa_ = nullptr;  // nullptr: this CPU has neither AVX-512 nor AVX2
  packed::MicroKernel<float> uk_{};
  packed::EpiloguePasses passes_{};
  KernelInfo info_;
  packed::PackedGemm<float> gemm_;
  float* c_ = nullptr;
  const float* bias_ = nullptr;
  std::int64_t m_ = 0, n_ = 0;
  ops::Activation act_ = ops::Activation::gelu_tanh;
  int threads_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> make_gemm_bias_act(bool fused) {
  return std::make_unique<GemmBiasActKernel>(fused);
}

}  // namespace ridgeline
