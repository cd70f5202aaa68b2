#pragma once
// The GEMM suites (suites.cpp lists them), as rows of data (suite_rows.hpp): smoke, default
// (with the fusion suite's sample beside the ladder), ladder, blas and gpu.
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

std::vector<CaseSpec> smoke_suite(const KernelCatalog& catalog, int cpus);
std::vector<CaseSpec> default_suite(const KernelCatalog& catalog, int cpus);
std::vector<CaseSpec> ladder_suite(const KernelCatalog& catalog, int cpus);
std::vector<CaseSpec> blas_suite(const KernelCatalog& catalog, int cpus);
// Empty without a GPU. Its rows are here so a machine without one can see what it would run.
std::vector<CaseSpec> gpu_suite(const KernelCatalog& catalog, int cpus);
const std::vector<GemmRow>& gpu_gemm_rows();

}  // namespace ridgeline
