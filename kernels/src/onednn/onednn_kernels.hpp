#pragma once
// oneDNN's ops as the vendor kernels of the catalog (backend vendor.onednn): softmax,
// layernorm, gemm_bias_act, attention; rmsnorm is listed with oneDNN 2.6's reason.
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_onednn_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
