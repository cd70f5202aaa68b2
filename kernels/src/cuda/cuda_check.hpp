#pragma once
// Every CUDA, cuBLAS and cuBLASLt call is checked: a failure throws with the call, the
// error's name and its text, and the case that made it is recorded as crashed.
#include <cublasLt.h>
#include <cublas_v2.h>
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

inline void cublas_check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusName(s) + " (" +
                             cublasGetStatusString(s) + ")");
}

// After a kernel launch: launch-configuration errors show here, faults at the next sync.
inline void cuda_check_launch(const char* kernel) {
  cuda_check(cudaGetLastError(), kernel);
}

}  // namespace ridgeline

#define RIDGELINE_CUDA(call) ::ridgeline::cuda_check((call), #call)
#define RIDGELINE_CUBLAS(call) ::ridgeline::cublas_check((call), #call)
