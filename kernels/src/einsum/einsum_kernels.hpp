#pragma once
// einsum's kernels, its lowerings (docs/einsum.md): the direct loop nest (einsum_loops.cpp),
// transpose-GEMM-transpose (einsum_ttgt.cpp) and the copy-free strided GEMM
// (einsum_strided.cpp).
#include <memory>

#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_einsum_kernels(KernelCatalog& catalog);
std::unique_ptr<Kernel> make_einsum_loops();
std::unique_ptr<Kernel> make_einsum_ttgt();
std::unique_ptr<Kernel> make_einsum_strided();

}  // namespace ridgeline
