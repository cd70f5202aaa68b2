#pragma once
#include <memory>

#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// The CPU matmul ladder, one kernel per rung (docs/kernel-contract.md).
std::unique_ptr<Kernel> make_naive_gemm();
std::unique_ptr<Kernel> make_reordered_gemm();
std::unique_ptr<Kernel> make_tiled_gemm();
enum class PackedIsa { avx2, avx512 };
std::unique_ptr<Kernel> make_packed_gemm(PackedIsa isa, bool threaded);
std::unique_ptr<Kernel> make_eigen_gemm();
std::unique_ptr<Kernel> make_blas_gemm(const BlasLibrarySpec& spec);

// gemm_bias_act on the packed GEMM: `fused` applies bias and activation in the micro-kernel's
// store (backend cpu.fused), otherwise as two passes through C after it (cpu.unfused).
std::unique_ptr<Kernel> make_gemm_bias_act(bool fused);

}  // namespace ridgeline
