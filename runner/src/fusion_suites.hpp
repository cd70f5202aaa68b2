#pragma once
// The fusion suite: each memory-bound op fused and unfused (suites.cpp lists it), as rows
// of data (suite_rows.hpp).
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

std::vector<CaseSpec> fusion_suite(const KernelCatalog& catalog, int cpus);
// A few of its cases, for the default suite.
std::vector<CaseSpec> fusion_sample(const KernelCatalog& catalog, int cpus);

// The same on the GPU (gpu_fusion_suite.cpp): empty without a GPU. Its rows are here so a
// machine without one can see what the suite would run.
std::vector<CaseSpec> gpu_fusion_suite(const KernelCatalog& catalog, int cpus);
std::vector<CaseSpec> gpu_fusion_sample(const KernelCatalog& catalog, int cpus);
const std::vector<SuiteRow>& gpu_fusion_rows();

}  // namespace ridgeline
