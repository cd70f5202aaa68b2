// The CPU kernels of gemm_bias_act, C = act(A * B + bias)
// (core/src/op_definitions/gemm_bias_act.cpp):
//   cpu.fused    the packed GEMM (packed_gemm.hpp) with an epilogue: the tiles of the last kc
//                block get the bias and the activation in registers, in the micro-kernel's
//                store; C is written once with its final values.
//   cpu.unfused  the same packed GEMM writing C, then a bias pass and an activation pass
//                through C, each OpenMP-parallel and running the epilogue's own vector code
//                (microkernel.hpp: EpiloguePasses): an eager framework's three calls.
// Both run the best ISA CPUID reports (AVX-512, else AVX2; NEON on AArch64) and honour the
// thread count. bf16 (A, B and bias; C in f32) runs the AMX micro-kernel (TDPBF16PS; the
// epilogue on the 32 x 32 block it just stored) where the tiles are usable (amx_support()),
// else the bf16 vector micro-kernel (vdpbf16ps, f32 accumulation), over the same driver where
// the CPU has AVX-512 and AVX512_BF16; on AArch64 the BFMMLA micro-kernel (bf16 pairs of
// 2 x 4 by 4 x 2 into f32) where HWCAP2 has BF16.
#include <fmt/format.h>

#include <algorithm>

#include "packed_gemm.hpp"
#include "ridgeline/kernels/amx.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

// Elements per unit of work in the unfused passes (64 KiB of C).
constexpr std::int64_t kPassChunk = 16384;

// One input type's micro-kernel, passes and driver (C is f32 for both).
template <typename In>
struct Path {
  packed::MicroKernel<In, float> uk{};
  packed::EpiloguePasses<In> passes{};
  packed::PackedGemm<In, float> gemm;
  const In* bias = nullptr;
};

class GemmBiasActKernel : public Kernel {
 public:
  explicit GemmBiasActKernel(bool fused) : fused_(fused) {
    const CpuFeatures& cpu = cpu_features();
    // This architecture's micro-kernels (kernels/CMakeLists.txt builds only its own), what
    // the description says of them, and why a CPU cannot run f32 or bf16.
#if defined(__x86_64__)
    const char* isas =
        "AVX-512 or AVX2 by CPUID (bf16: the AMX tiles where usable, else AVX512_BF16)";
    isa_missing_ = "needs AVX-512 (F, DQ, BW, VL) or AVX2 and FMA, which this CPU lacks";
    bf16_missing_ = "bf16 needs AVX-512 and AVX512_BF16 (vdpbf16ps), which this CPU lacks";
    if (cpu.has_avx512()) {
      isa_ = "avx512";
      f32_.uk = packed::microkernel_f32_avx512();
      f32_.passes = packed::epilogue_passes_avx512();
      bf16_available_ = cpu.avx512_bf16;
      // bf16 products on the matrix engine where this process may use it.
      bf16_amx_ = amx_support().reason_for("bf16").empty();
      bf16_.uk = bf16_amx_ ? packed::microkernel_bf16_amx() : packed::microkernel_bf16_avx512();
      bf16_.passes = packed::epilogue_passes_bf16_avx512();
    } else if (cpu.has_avx2_fma()) {
      isa_ = "avx2";
      f32_.uk = packed::microkernel_f32_avx2();
      f32_.passes = packed::epilogue_passes_avx2();
    }
#elif defined(__aarch64__)
    const char* isas = "NEON (bf16: BFMMLA where HWCAP2 has BF16)";
    isa_missing_ = "needs Advanced SIMD (NEON), which this CPU lacks";
    bf16_missing_ = "bf16 needs BF16 (BFMMLA; HWCAP2_BF16), which this CPU lacks";
    if (cpu.neon) {
      isa_ = "neon";
      f32_.uk = packed::microkernel_f32_neon();
      f32_.passes = packed::epilogue_passes_neon();
      bf16_available_ = cpu.neon_bf16;
      bf16_.uk = packed::microkernel_bf16_bfmmla();
      bf16_.passes = packed::epilogue_passes_bf16_neon();
    }
#endif
    info_ = {"gemm_bias_act",
             fused ? "cpu.fused" : "cpu.unfused",
             Device::cpu,
             {DType::f32, DType::bf16},
             true,
             fused ? fmt::format("packed GEMM, bias and activation applied to the register tile "
                                 "in the micro-kernel's store, {}",
                                 isas)
                   : "packed GEMM writing C, then a bias pass and an activation pass through "
                     "C (OpenMP, vectorised)",
             fused ? KernelRole::fused : KernelRole::unfused,
             "cpu"};
  }

  const KernelInfo& info() const override {
    return info_;
  }

  Support supports(const Problem& problem, int threads) const override {
    if (!isa_) return Support::no(info_.id() + " " + isa_missing_);
    if (problem.op == info_.op && problem.dtype == DType::bf16 && !bf16_available_)
      return Support::no(info_.id() + ": " + bf16_missing_);
    return check_gemm_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    dtype_ = problem.dtype;
    act_ = ops::activation_of(problem);
    threads_ = threads;
    if (dtype_ == DType::bf16)
      prepare_path(bf16_, problem, operands);
    else
      prepare_path(f32_, problem, operands);
  }

  void run() override {
    if (dtype_ == DType::bf16)
      run_path(bf16_);
    else
      run_path(f32_);
  }

  PassClock* pass_clock() override {
    return fused_ ? nullptr : &passes_;
  }
  ComputeUnit compute_unit(const Problem& problem) const override {
    return problem.dtype == DType::bf16 && bf16_amx_ ? ComputeUnit::matrix : ComputeUnit::vector;
  }
  std::map<std::string, std::string> notes() const override {
    const bool bf16 = dtype_ == DType::bf16;
    return {{"microkernel", bf16 ? bf16_.uk.name : f32_.uk.name},
            {"blocking", bf16 ? bf16_.gemm.blocking().describe() : f32_.gemm.blocking().describe()},
            {"caches", cache_sizes().source},
            {"isa", bf16 && bf16_amx_ ? "amx"
                    : isa_            ? isa_
                                      : "none"},
            {"epilogue", fused_ ? fmt::format("bias + {} in the micro-kernel's store of the last "
                                              "kc block",
                                              ops::to_string(act_))
                                : fmt::format("none: the GEMM writes C, then a bias pass and a "
                                              "{} pass through C",
                                              ops::to_string(act_))}};
  }

 private:
  template <typename In>
  void prepare_path(Path<In>& path, const Problem& problem, Operands& operands) {
    const cpu::GemmArgs<In, float> g = cpu::gemm_args<In, float>(problem, gemm_view(operands));
    c_ = g.c;
    m_ = g.m;
    n_ = g.n;
    path.bias = operands.at("bias").as<In>().data();
    std::optional<packed::Epilogue<In>> epilogue;
    if (fused_) epilogue = packed::Epilogue<In>{path.bias, act_};
    path.gemm.prepare(g, path.uk, packed::blocking_for(path.uk, cache_sizes()), threads_, epilogue);
  }

  template <typename In>
  void run_path(Path<In>& path) {
    if (fused_) return path.gemm.run();
    const PassClock::Lap lap(passes_);
    path.gemm.run();
    pass_done();
    bias_pass(path);
    pass_done();
    activation_pass(path.passes.activate);
    pass_done();
  }

  template <typename In>
  void bias_pass(const Path<In>& path) {
    const std::int64_t rows = std::max<std::int64_t>(1, kPassChunk / n_);
    const std::int64_t chunks = (m_ + rows - 1) / rows;
#pragma omp parallel for num_threads(threads_) schedule(static) if (threads_ > 1)
    for (std::int64_t ch = 0; ch < chunks; ++ch) {
      const std::int64_t r0 = ch * rows;
      path.passes.add_bias(c_ + r0 * n_, path.bias, std::min(rows, m_ - r0), n_);
    }
  }

  void activation_pass(void (*activate)(float*, std::int64_t, ops::Activation)) {
    const std::int64_t total = m_ * n_;
    const std::int64_t chunks = (total + kPassChunk - 1) / kPassChunk;
#pragma omp parallel for num_threads(threads_) schedule(static) if (threads_ > 1)
    for (std::int64_t ch = 0; ch < chunks; ++ch) {
      const std::int64_t e0 = ch * kPassChunk;
      activate(c_ + e0, std::min(kPassChunk, total - e0), act_);
    }
  }

  bool fused_;
  PassClock passes_;           // unfused: lapped by the GEMM, the bias and the activation pass
  const char* isa_ = nullptr;  // nullptr: this CPU has none of the micro-kernels' ISAs
  const char* isa_missing_ = "";
  const char* bf16_missing_ = "";
  bool bf16_available_ = false;
  bool bf16_amx_ = false;  // bf16's products on the AMX tiles
  KernelInfo info_;
  Path<float> f32_;
  Path<std::uint16_t> bf16_;
  DType dtype_ = DType::f32;
  float* c_ = nullptr;
  std::int64_t m_ = 0, n_ = 0;
  ops::Activation act_ = ops::Activation::gelu_tanh;
  int threads_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> make_gemm_bias_act(bool fused) {
  return std::make_unique<GemmBiasActKernel>(fused);
}

}  // namespace ridgeline
