// The BLAS libraries discovered here, each loaded in this process to learn what it has (its
// thread setter, its bf16 and int8 GEMMs), as `ridgeline` learns it in a child process
// (cli/blas_probe.cpp): a catalog made from them lists each library's GEMM with the dtypes it
// runs. The tests that use it load the libraries anyway, to run them.
#pragma once

#include <vector>

#include "ridgeline/kernels/blas_provider.hpp"

namespace ridgeline {

inline std::vector<BlasLibrarySpec> probed_blas_libraries() {
  std::vector<BlasLibrarySpec> specs;
  for (const BlasLibrarySpec& spec : discover_blas_libraries())
    specs.push_back(load_blas_library(spec)->probed_spec());
  return specs;
}

}  // namespace ridgeline
