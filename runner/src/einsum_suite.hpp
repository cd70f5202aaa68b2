#pragma once
// The einsum suite: contractions practitioners write, each on every einsum kernel, and the
// steps of a chain's contraction paths.
#include <vector>

#include "ridgeline/core/run.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

std::vector<CaseSpec> einsum_suite(const KernelCatalog& catalog, int cpus);
// Its networks: each step of their contraction paths is one of its contractions.
const std::vector<EinsumNetworkRun>& einsum_suite_networks();

}  // namespace ridgeline
