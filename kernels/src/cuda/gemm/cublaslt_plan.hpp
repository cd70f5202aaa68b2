#pragma once
// A cuBLASLt matmul for one problem on the device: descriptor, column-major views of the
// row-major operands, and the heuristic's algorithm, built once and run many times. Used by
// the cuda.cublaslt kernel and by the probe's tensor-core ceilings.
#include <cublasLt.h>

#include <cstdint>
#include <string>

#include "device_gemm.hpp"

namespace ridgeline {

inline constexpr std::size_t kCublasLtWorkspaceBytes = 32u << 20;

// alpha = 1 and beta = 0 in the scale type.
struct UnitScalars {
  double f64[2] = {1.0, 0.0};
  float f32[2] = {1.0f, 0.0f};
  std::int32_t i32[2] = {1, 0};
  const void* alpha(cudaDataType_t t) const {
    return t == CUDA_R_64F   ? static_cast<const void*>(&f64[0])
           : t == CUDA_R_32I ? static_cast<const void*>(&i32[0])
                             : static_cast<const void*>(&f32[0]);
  }
  const void* beta(cudaDataType_t t) const {
    return t == CUDA_R_64F   ? static_cast<const void*>(&f64[1])
           : t == CUDA_R_32I ? static_cast<const void*>(&i32[1])
                             : static_cast<const void*>(&f32[1]);
  }
};

class CublasLtPlan {
 public:
  CublasLtPlan(cublasLtHandle_t handle, const DeviceGemm& g, std::size_t workspace_bytes);
  ~CublasLtPlan();
  CublasLtPlan(const CublasLtPlan&) = delete;
  CublasLtPlan& operator=(const CublasLtPlan&) = delete;
  void run(const DeviceGemm& g, void* workspace, std::size_t workspace_bytes,
           cudaStream_t stream) const;
  const std::string& description() const { return description_; }

 private:
  void release();
  cublasLtHandle_t handle_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t first_ = nullptr, second_ = nullptr, out_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  cudaDataType_t scale_ = CUDA_R_32F;
  bool epilogue_ = false;  // bias and activation: the bias pointer is set per run
  UnitScalars scalars_;
  std::string description_;
};

}  // namespace ridgeline
