#pragma once
// einsum's kernels, its lowerings (docs/einsum.md): the direct loop nest (einsum_loops.cpp),
// transpose-GEMM-transpose (einsum_ttgt.cpp), the copy-free strided GEMM
// (einsum_strided.cpp), GETT (einsum_gett.cpp) and the vendors: Eigen's Tensor contraction
// (einsum_eigen.cpp), oneDNN's strided matmul (einsum_onednn.cpp) and each CBLAS library
// (einsum_blas.cpp).
#include <memory>

#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_einsum_kernels(KernelCatalog& catalog);
std::unique_ptr<Kernel> make_einsum_loops();
std::unique_ptr<Kernel> make_einsum_ttgt();
std::unique_ptr<Kernel> make_einsum_strided();
std::unique_ptr<Kernel> make_einsum_gett();
// Eigen's Tensor contraction, or a stub saying Eigen is off (cpu/eigen_disabled.cpp).
std::unique_ptr<Kernel> make_einsum_eigen();
// TTGT with Eigen's contraction as its GEMM step (cpu.eigen.ttgt); in a build without Eigen
// a kernel that refuses every problem with that reason (cpu/eigen_disabled.cpp).
std::unique_ptr<Kernel> make_einsum_eigen_ttgt();
// oneDNN's matmul on strided memory descriptors, or why oneDNN is off (einsum_onednn.cpp).
std::unique_ptr<Kernel> make_einsum_onednn();
// The vendor lowerings through one CBLAS library (einsum_blas.cpp): the strided view
// (blas.<name>) and TTGT with the library's GEMM (blas.<name>.ttgt).
std::unique_ptr<Kernel> make_blas_einsum(const BlasLibrarySpec& spec);
std::unique_ptr<Kernel> make_blas_einsum_ttgt(const BlasLibrarySpec& spec);

}  // namespace ridgeline
