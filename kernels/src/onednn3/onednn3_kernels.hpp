#pragma once
// oneDNN 3, loaded at run time where scripts/install-deps --onednn put it, as a vendor of the
// GEMM comparison (backend vendor.onednn3); each kernel says why where it is absent.
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_onednn3_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
