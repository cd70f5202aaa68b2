#pragma once
// The attention op's CPU kernels: cpu.fused (flash-style) and cpu.unfused (the eager chain).
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

void add_attention_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
