#pragma once
// The fusion suite: each memory-bound op fused and unfused (suites.cpp lists it).
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

std::vector<CaseSpec> fusion_suite(const KernelCatalog& catalog, int cpus);
// A few of its cases, for the default suite.
std::vector<CaseSpec> fusion_sample(const KernelCatalog& catalog, int cpus);

}  // namespace ridgeline
