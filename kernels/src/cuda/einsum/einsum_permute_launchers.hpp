#pragma once
// The einsum permute on the GPU (einsum_permute.cu), TTGT's copies (einsum_cuda_ttgt.cpp):
// the output dense in its own index order, each index's stride in the input. Where the
// input's stride-1 index stays last, runs are copied as they lie; elsewhere 32 x 32 tiles go
// through shared memory, so that reads run along the input's stride-1 index and writes
// along the output's. Included by .cu files: C++17.
#include <cuda_runtime.h>

#include <cstdint>

namespace ridgeline {

inline constexpr int kMostPermuteIndices = 12;

struct DevicePermute {
  const void* in = nullptr;
  void* out = nullptr;
  int indices = 0;                                   // the output's, in its order
  std::int64_t extent[kMostPermuteIndices] = {};     // each output index's extent
  std::int64_t in_stride[kMostPermuteIndices] = {};  // and its stride in the input
  int element_bytes = 4;                             // 4 (f32) or 8 (f64)
};

// Enqueues the permute on `stream`; checks the launch.
void launch_einsum_permute(const DevicePermute& p, cudaStream_t stream);

}  // namespace ridgeline
