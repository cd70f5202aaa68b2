#pragma once
// Every CUDA runtime call is checked (cuBLAS calls: cublas_library.hpp): a failure throws
// with the call, the error's name and its text, and the case that made it is recorded as
// crashed.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ridgeline {

inline std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

inline void cuda_check(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(call) + " failed: " + cuda_error_text(e));
}

// After a kernel launch: launch-configuration errors show here, faults at the next sync.
inline void cuda_check_launch(const char* kernel) {
  cuda_check(cudaGetLastError(), kernel);
}

}  // namespace ridgeline

#define RIDGELINE_CUDA(call) ::ridgeline::cuda_check((call), #call)
