#pragma once
// The einsum suite: contractions practitioners write, each on every einsum kernel.
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

std::vector<CaseSpec> einsum_suite(const KernelCatalog& catalog, int cpus);

}  // namespace ridgeline
