#pragma once
// The patterns suite: what the input data does to CPU kernels (suites.cpp lists it).
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

std::vector<CaseSpec> patterns_suite(const KernelCatalog& catalog, int cpus);

}  // namespace ridgeline
