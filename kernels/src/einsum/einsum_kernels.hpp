#pragma once
// einsum's kernels (docs: issue 40's lowerings): the direct loop nest so far.
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_einsum_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
