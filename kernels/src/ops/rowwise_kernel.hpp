#pragma once
// The memory-bound ops' CPU kernels: cpu.fused and cpu.unfused for softmax, layernorm,
// rmsnorm and eltwise_chain.
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_rowwise_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
