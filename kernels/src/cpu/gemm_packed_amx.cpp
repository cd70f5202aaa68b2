// Rung 6 (and 7 with OpenMP) where the core has a matrix engine: the packed driver
// (packed_gemm.hpp) with the AMX micro-kernels (amx_microkernel.hpp): bf16 into f32 on
// TDPBF16PS, int8 into i32 on TDPBSSD, 32 x 32 blocks of C in four accumulator tiles. The same
// rung on the tile model (AmxTiles::model) runs anywhere, slowly: the conformance tests check
// the micro-kernel's packing, tiling and tails through it; the catalog lists the hardware one.
// AArch64 builds have the model only: there the hardware rung refuses every problem.
#include <fmt/format.h>

#include "packed_gemm.hpp"
#include "ridgeline/kernels/amx.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

namespace {

using packed::MicroKernel;
using packed::PackedGemm;

// The micro-kernels on the instructions (amx_microkernel.cpp, built for x86-64 only), and why
// none can run here where they are not built ("" where they are).
#if defined(__x86_64__)
constexpr const char* kAmxNotBuilt = "";
MicroKernel<std::uint16_t, float> amx_bf16_hardware() {
  return packed::microkernel_bf16_amx();
}
MicroKernel<std::int8_t, std::int32_t> amx_i8_hardware() {
  return packed::microkernel_i8_amx();
}
#elif defined(__aarch64__)
constexpr const char* kAmxNotBuilt =
    "AMX is Intel's x86-64 matrix engine; this is an AArch64 build";
// Their names and tiles only, for the description; supports() refuses before they could run.
template <typename In, typename Out>
MicroKernel<In, Out> amx_kernel_named(const char* name) {
  MicroKernel<In, Out> uk{};
  uk.name = name;
  uk.mr = packed::amx_gemm_mr;
  uk.nr = packed::amx_gemm_nr;
  return uk;
}
MicroKernel<std::uint16_t, float> amx_bf16_hardware() {
  return amx_kernel_named<std::uint16_t, float>("gemm_bf16_amx_32x32");
}
MicroKernel<std::int8_t, std::int32_t> amx_i8_hardware() {
  return amx_kernel_named<std::int8_t, std::int32_t>("gemm_i8_amx_32x32");
}
#endif

class PackedAmxGemmKernel : public Kernel {
 public:
  PackedAmxGemmKernel(bool threaded, AmxTiles tiles) : tiles_(tiles) {
    const bool model = tiles == AmxTiles::model;
    ukbf16_ = model ? packed::microkernel_bf16_amx_model() : amx_bf16_hardware();
    uki8_ = model ? packed::microkernel_i8_amx_model() : amx_i8_hardware();
    info_ = {"gemm",
             fmt::format("cpu.packed_amx{}{}", model ? "_model" : "", threaded ? "_omp" : ""),
             Device::cpu,
             {DType::bf16, DType::i8},
             threaded,
             fmt::format("BLIS-style packed panels on the AMX tiles{}: {} (TDPBF16PS, C in f32) / "
                         "{} (TDPBSSD, C in i32), 2 x 2 accumulator tiles, A in tile rows, B in "
                         "VNNI order{}",
                         model ? "' model (amx_tiles.hpp)" : "", ukbf16_.name, uki8_.name,
                         threaded ? ", OpenMP over blocks of A" : "")};
  }

  const KernelInfo& info() const override { return info_; }

  Support supports(const Problem& problem, int threads) const override {
    if (tiles_ == AmxTiles::hardware && *kAmxNotBuilt != '\0')
      return Support::no(info_.id() + ": " + kAmxNotBuilt);
    if (tiles_ == AmxTiles::hardware && problem.op == info_.op &&
        (problem.dtype == DType::bf16 || problem.dtype == DType::i8)) {
      const std::string why =
          amx_support().reason_for(problem.dtype == DType::bf16 ? "bf16" : "i8");
      if (!why.empty()) return Support::no(info_.id() + ": " + why);
    }
    return check_gemm_support(info_, problem, threads);
  }

  void prepare(const Problem& problem, Operands& operands, int threads) override {
    dtype_ = problem.dtype;
    if (dtype_ == DType::bf16)
      bf16_.prepare(cpu::gemm_args<std::uint16_t, float>(problem, gemm_view(operands)), ukbf16_,
                    packed::blocking_for(ukbf16_, cache_sizes()), threads);
    else
      i8_.prepare(cpu::gemm_args<std::int8_t, std::int32_t>(problem, gemm_view(operands)), uki8_,
                  packed::blocking_for(uki8_, cache_sizes()), threads);
  }

  void run() override {
    if (dtype_ == DType::bf16)
      bf16_.run();
    else
      i8_.run();
  }

  ComputeUnit compute_unit(const Problem&) const override { return ComputeUnit::matrix; }

  std::map<std::string, std::string> notes() const override {
    const bool bf16 = dtype_ == DType::bf16;
    // What bounds it where the tiles are fed fast enough: the loads into them.
    const int ops = 4 * 2 * 16 * 16 * (bf16 ? 32 : 64);  // four products of a k tile
    const char* unit = bf16 ? "FLOP" : "OP";
    const std::string per_tile = fmt::format(
        "per k tile, 4 tile loads (A0, A1 from the A block in L2, B0, B1 from the B "
        "panel in L1: 4 KiB) for 4 {} ({} {}): {} {} per byte loaded into the "
        "tiles; C's four tiles loaded and stored once per kc block",
        bf16 ? "TDPBF16PS" : "TDPBSSD", ops, unit, ops / 4096, unit);
    return {{"microkernel", bf16 ? ukbf16_.name : uki8_.name},
            {"blocking", (bf16 ? bf16_.blocking() : i8_.blocking()).describe()},
            {"caches", cache_sizes().source},
            {"tile traffic", per_tile}};
  }

 private:
  AmxTiles tiles_;
  KernelInfo info_;
  MicroKernel<std::uint16_t, float> ukbf16_{};
  MicroKernel<std::int8_t, std::int32_t> uki8_{};
  DType dtype_ = DType::bf16;
  PackedGemm<std::uint16_t, float> bf16_;
  PackedGemm<std::int8_t, std::int32_t> i8_;
};

}  // namespace

std::unique_ptr<Kernel> make_packed_amx_gemm(bool threaded, AmxTiles tiles) {
  return std::make_unique<PackedAmxGemmKernel>(threaded, tiles);
}

}  // namespace ridgeline
