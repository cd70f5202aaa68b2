#pragma once
// The patterns suites: what the input data does to CPU kernels, and to the GPU's tensor-core
// GEMM (suites.cpp lists them).
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

std::vector<CaseSpec> patterns_suite(const KernelCatalog& catalog, int cpus);
// Empty without a GPU.
std::vector<CaseSpec> gpu_patterns_suite(const KernelCatalog& catalog, int cpus);

}  // namespace ridgeline
