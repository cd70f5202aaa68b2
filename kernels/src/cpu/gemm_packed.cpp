// Rung 4 (and 5 with OpenMP): BLIS-style GEMM, the packed driver (packed_gemm.hpp) with the
// micro-kernels of the ISA the backend names. The AVX-512 rungs also run bf16 (C in f32)
// where the CPU has AVX512_BF16: the bf16 micro-kernel (vdpbf16ps) over the same driver; and
// i8 (C in i32) where it has AVX512_VNNI (vpdpbusd), for CPUs without AMX. On AArch64 the
// NEON rung runs f32 and f64, bf16 on BFMMLA and i8 on SMMLA where HWCAP2 has them, and the
// SVE rung f32 and f64 at the process's vector length.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "packed_gemm.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

using packed::MicroKernel;
using packed::PackedGemm;

// A dtype's micro-kernel beyond f32 and f64, the extension it needs (named in the kernel's
// description) and why this CPU cannot run it ("" where it can).
template <typename In, typename Out>
struct Extra {
  MicroKernel<In, Out> uk;
  const char* extension;
  const char* missing;
};

// A rung's micro-kernels as this build has them: kernels/CMakeLists.txt builds only this
// architecture's ISA units, so the other's rungs have none (built false) and refuse every
// problem. `missing`: why this CPU cannot run the rung ("" where it can).
struct Rung {
  const char* isa = "";
  bool built = false;
  const char* missing = "";
  MicroKernel<float> f32{};
  MicroKernel<double> f64{};
  std::optional<Extra<std::uint16_t, float>> bf16;
  std::optional<Extra<std::int8_t, std::int32_t>> i8;
};

Rung absent(const char* isa) {
  Rung r;
  r.isa = isa;
  return r;
}

Rung built(const char* isa, MicroKernel<float> f32, MicroKernel<double> f64, bool runs,
           const char* needs) {
  Rung r = absent(isa);
  r.built = true;
  r.missing = runs ? "" : needs;
  r.f32 = f32;
  r.f64 = f64;
  return r;
}

#if defined(__x86_64__)
constexpr const char* kPackedArchitecture = "x86-64";
Rung rung_of(PackedIsa isa, const CpuFeatures& cpu) {
  switch (isa) {
    case PackedIsa::avx512: {
      Rung r = built("avx512", packed::microkernel_f32_avx512(), packed::microkernel_f64_avx512(),
                     cpu.has_avx512(), "needs AVX-512 (F, DQ, BW, VL), which this CPU lacks");
      r.bf16 = {packed::microkernel_bf16_avx512(), "AVX512_BF16",
                cpu.avx512_bf16 ? "" : "bf16 needs AVX512_BF16 (vdpbf16ps), which this CPU lacks"};
      r.i8 = {packed::microkernel_i8_avx512(), "AVX512_VNNI",
              cpu.avx512_vnni ? "" : "i8 needs AVX512_VNNI (vpdpbusd), which this CPU lacks"};
      return r;
    }
    case PackedIsa::avx2:
      return built("avx2", packed::microkernel_f32_avx2(), packed::microkernel_f64_avx2(),
                   cpu.has_avx2_fma(), "needs AVX2 and FMA, which this CPU lacks");
    case PackedIsa::neon:
      return absent("neon");
    case PackedIsa::sve:
      break;
  }
  return absent("sve");
}
#elif defined(__aarch64__)
constexpr const char* kPackedArchitecture = "AArch64";
Rung rung_of(PackedIsa isa, const CpuFeatures& cpu) {
  switch (isa) {
    case PackedIsa::avx512:
      return absent("avx512");
    case PackedIsa::avx2:
      return absent("avx2");
    case PackedIsa::neon: {
      // bf16 on BFMMLA and i8 on SMMLA: 128-bit matrix multiply-accumulates, in NEON registers.
      Rung r = built("neon", packed::microkernel_f32_neon(), packed::microkernel_f64_neon(),
                     cpu.neon, "needs Advanced SIMD (NEON), which this CPU lacks");
      r.bf16 = {packed::microkernel_bf16_bfmmla(), "BF16",
                cpu.neon_bf16 ? "" : "bf16 needs BF16 (BFMMLA; HWCAP2_BF16), which this CPU lacks"};
      r.i8 = {packed::microkernel_i8_smmla(), "I8MM",
              cpu.neon_i8mm ? "" : "i8 needs I8MM (SMMLA; HWCAP2_I8MM), which this CPU lacks"};
      return r;
    }
    case PackedIsa::sve:
      break;
  }
  // Vector-length agnostic: its NR is a number of vectors, so the same build runs 128-bit
  // (Neoverse N2, V2) and 256-bit (V1) SVE.
  return built("sve", packed::microkernel_f32_sve(), packed::microkernel_f64_sve(), cpu.sve,
               "needs SVE (HWCAP_SVE), which this CPU lacks");
}
#endif

class PackedGemmKernel : public Kernel {
 public:
  PackedGemmKernel(PackedIsa isa, bool threaded) : rung_(rung_of(isa, cpu_features())) {
    std::vector<DType> dtypes{DType::f32, DType::f64};
    std::string kernels = rung_.built
                              ? fmt::format("{} / {}", rung_.f32.name, rung_.f64.name)
                              : fmt::format("no {} (an {} build)", rung_.isa, kPackedArchitecture);
    if (rung_.bf16) {
      dtypes.push_back(DType::bf16);
      kernels += fmt::format(" / {} ({})", rung_.bf16->uk.name, rung_.bf16->extension);
    }
    if (rung_.i8) {
      dtypes.push_back(DType::i8);
      kernels += fmt::format(" / {} ({})", rung_.i8->uk.name, rung_.i8->extension);
    }
    info_ = {"gemm",
             fmt::format("cpu.packed_{}{}", rung_.isa, threaded ? "_omp" : ""),
             Device::cpu,
             dtypes,
             threaded,
             fmt::format("BLIS-style packed panels, {} micro-kernels{}", kernels,
                         threaded ? ", OpenMP over blocks of A" : "")};
  }

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    if (!rung_.built)
      return Support::no(fmt::format("{}: the {} micro-kernels are not built for {}", info_.id(),
                                     rung_.isa, kPackedArchitecture));
    if (*rung_.missing != '\0') return Support::no(info_.id() + " " + rung_.missing);
    if (problem.op == info_.op && problem.dtype == DType::bf16 && rung_.bf16 &&
        *rung_.bf16->missing != '\0')
      return Support::no(info_.id() + ": " + rung_.bf16->missing);
    if (problem.op == info_.op && problem.dtype == DType::i8 && rung_.i8 &&
        *rung_.i8->missing != '\0')
      return Support::no(info_.id() + ": " + rung_.i8->missing);
    return check_gemm_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    dtype_ = problem.dtype;
    if (dtype_ == DType::f32) {
      f32_.prepare(cpu::gemm_args<float>(problem, gemm_view(operands)), rung_.f32,
                   packed::derive_blocking(cache_sizes(), rung_.f32.mr, rung_.f32.nr, 4), threads);
    } else if (dtype_ == DType::bf16) {
      bf16_.prepare(
          cpu::gemm_args<std::uint16_t, float>(problem, gemm_view(operands)), rung_.bf16->uk,
          packed::derive_blocking(cache_sizes(), rung_.bf16->uk.mr, rung_.bf16->uk.nr, 2), threads);
    } else if (dtype_ == DType::i8) {
      i8_.prepare(cpu::gemm_args<std::int8_t, std::int32_t>(problem, gemm_view(operands)),
                  rung_.i8->uk, packed::blocking_for(rung_.i8->uk, cache_sizes()), threads);
    } else {
      f64_.prepare(cpu::gemm_args<double>(problem, gemm_view(operands)), rung_.f64,
                   packed::derive_blocking(cache_sizes(), rung_.f64.mr, rung_.f64.nr, 8), threads);
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
    const auto [name, blocking] =
        dtype_ == DType::f32    ? std::pair(rung_.f32.name, f32_.blocking())
        : dtype_ == DType::bf16 ? std::pair(rung_.bf16->uk.name, bf16_.blocking())
        : dtype_ == DType::i8   ? std::pair(rung_.i8->uk.name, i8_.blocking())
                                : std::pair(rung_.f64.name, f64_.blocking());
    return {
        {"microkernel", name}, {"blocking", blocking.describe()}, {"caches", cache_sizes().source}};
  }

 private:
  Rung rung_;
  KernelInfo info_;
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
