#pragma once
// The fusion suite: each memory-bound op fused and unfused (suites.cpp lists it).
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// One case of `op` with its params as text ("rows=4096,cols=4096/act=relu").
CaseSpec fusion_case(const std::string& backend, const std::string& op, const char* params,
                     int threads, DType dtype = DType::f32);

std::vector<CaseSpec> fusion_suite(const KernelCatalog& catalog, int cpus);
// A few of its cases, for the default suite.
std::vector<CaseSpec> fusion_sample(const KernelCatalog& catalog, int cpus);

// The same on the GPU (gpu_fusion_suite.cpp): empty without a GPU.
std::vector<CaseSpec> gpu_fusion_suite(const KernelCatalog& catalog, int cpus);
std::vector<CaseSpec> gpu_fusion_sample(const KernelCatalog& catalog, int cpus);

}  // namespace ridgeline
