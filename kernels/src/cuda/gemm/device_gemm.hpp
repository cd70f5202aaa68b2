#pragma once
// One copy of a GEMM's operands on the device. Included by the .cu files, so it stays
// C++17 (nvcc under CMake 3.25) and pulls in nothing of the C++20 modules but DType.
#include <cstdint>

#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

// What follows the product in C's store: nothing (gemm), or gemm_bias_act's bias broadcast
// over the rows of C and then its activation.
enum class Epilogue { none, bias_relu, bias_gelu_tanh };

// Row-major dimensions; lda/ldb/ldc are the stored row lengths.
struct DeviceGemm {
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t lda = 0, ldb = 0, ldc = 0;
  bool transpose_a = false, transpose_b = false;
  DType dtype = DType::f32;
  Epilogue epilogue = Epilogue::none;
  const void* bias = nullptr;  // n values of dtype (gemm_bias_act)
};

}  // namespace ridgeline
