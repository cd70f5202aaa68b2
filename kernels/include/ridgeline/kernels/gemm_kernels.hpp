#pragma once
#include <memory>
#include <optional>

#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// The CPU matmul ladder, one kernel per rung (docs/kernel-contract.md).
std::unique_ptr<Kernel> make_naive_gemm();
std::unique_ptr<Kernel> make_reordered_gemm();
std::unique_ptr<Kernel> make_tiled_gemm();
// avx2 and avx512 are built for x86-64, neon for AArch64; the other architecture's refuse.
enum class PackedIsa { avx2, avx512, neon, sve };
std::unique_ptr<Kernel> make_packed_gemm(PackedIsa isa, bool threaded);
// The packed rung this CPU runs best, by the ladder's order rather than a timing: AVX-512, else
// AVX2 with FMA on x86-64; NEON on AArch64 (whether SVE's tile beats it on a V1 is to be
// measured there). nullopt where none runs. catalog.hpp's best_packed_backend names it.
std::optional<PackedIsa> best_packed_isa();
// The packed rung on Intel AMX (bf16 into f32, int8 into i32): on the instructions (in the
// catalog; unsupported, with the CPUID or kernel's reason, where the tiles are not usable),
// or on the tile model, which runs on any CPU for the conformance tests (not in the catalog).
enum class AmxTiles { hardware, model };
std::unique_ptr<Kernel> make_packed_amx_gemm(bool threaded, AmxTiles tiles = AmxTiles::hardware);
std::unique_ptr<Kernel> make_eigen_gemm();
std::unique_ptr<Kernel> make_blas_gemm(const BlasLibrarySpec& spec);

// gemm_bias_act on the packed GEMM: `fused` applies bias and activation in the micro-kernel's
// store (backend cpu.fused), otherwise as two passes through C after it (cpu.unfused).
std::unique_ptr<Kernel> make_gemm_bias_act(bool fused);

// A GEMM kernel's supports() starts here: check_common_support, then check_gemm_batch.
Support check_gemm_support(const KernelInfo& info, const Problem& problem, int threads);
// One product per call: no kernel here runs a batch of GEMMs (gemm's batch above 1) yet.
Support check_gemm_batch(const KernelInfo& info, const Problem& problem);

}  // namespace ridgeline
