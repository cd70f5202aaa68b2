#pragma once
#include <string>
#include <vector>

#include "ridgeline/kernels/blas_provider.hpp"

namespace ridgeline {

struct BlasProbe {
  BlasLibrarySpec spec;  // with what the probe found (thread setter, bf16 and int8 GEMMs)
  bool loadable = false;
  std::string version;
  std::string thread_setter;
  std::string kernel_set;  // BlasLibrary::kernel_set() in the child
  std::string threading;   // BlasLibrary::threading() in the child
  std::string error;       // the dlopen error or the missing symbol, naming the path
};

// Loads the library in a child process (so no BLAS thread pool starts in this one) and
// reports what it found.
BlasProbe probe_blas(const BlasLibrarySpec& spec);

// The discovered libraries plus each --blas-lib path; a user path that does not load is
// an InputError naming the path and the problem.
std::vector<BlasLibrarySpec> blas_libraries_for(const std::vector<std::string>& user_paths);

}  // namespace ridgeline
