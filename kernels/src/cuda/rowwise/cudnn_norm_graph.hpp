#pragma once
// The graph cuDNN's layernorm and rmsnorm kernels plan (gpu_cudnn_norm.cpp): x, y, gamma
// (f32), epsilon (by value), beta (f32, layernorm) and one normalisation-forward operation in
// the inference phase. Tensors and operation finalise without a GPU (tests build them).
#include <cstdint>
#include <memory>
#include <vector>

#include "../../ops/rowwise_op.hpp"
#include "../cudnn_graph.hpp"
#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

struct CudnnNormGraph {
  enum Uid : std::int64_t { kX = 1, kScale, kBias, kEpsilon, kY };
  std::vector<CudnnDescriptor> tensors;  // x, y, gamma, epsilon, then beta where the op has it
  std::unique_ptr<CudnnDescriptor> operation;
};

// `op` is layernorm or rmsnorm; x and y of `dtype`, rows x cols, row-major.
CudnnNormGraph cudnn_norm_graph(RowwiseOp op, DType dtype, std::int64_t rows, std::int64_t cols);

}  // namespace ridgeline
