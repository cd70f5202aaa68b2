#pragma once
// What every kernel that calls a CBLAS library shares (the GEMM rung, einsum's vendor
// lowering): its catalog entry, the refusal of more than one thread where the library has no
// thread setter, and loading the library with the case's thread count.
#include <memory>
#include <string>

#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// "blas.<name>" for `op`, f32 and f64, threaded where the library has (or may have) a setter,
// role vendor, family blas.
KernelInfo blas_kernel_info(const BlasLibrarySpec& spec, const std::string& op,
                            std::string description);
// No with the reason for threads > 1 on a library without a setter; yes otherwise.
Support blas_threads_support(const KernelInfo& info, const BlasLibrarySpec& spec, int threads);
// The library, loaded into `lib` on first use, set to `threads`; throws where it cannot run
// them.
const BlasLibrary& blas_with_threads(std::unique_ptr<BlasLibrary>& lib, const BlasLibrarySpec& spec,
                                     int threads);

}  // namespace ridgeline
