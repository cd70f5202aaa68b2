#pragma once
// The graph cuDNN's attention kernel plans (gpu_cudnn_attention.cpp), in the form cuDNN's
// fused flash-attention engines recognise (the one its frontend builds for inference):
// S = Q K^T (f32), S * scale, [causal: keep S where row >= column, else -inf], the row max,
// exp(S - max), the row sum, stats = max + log(sum), P = exp / sum in the inputs' dtype,
// O = P V. Every intermediate is virtual: cuDNN keeps it on chip, as flash attention does.
// Tensors and operations finalise without a GPU (tests build them).
#include <cstdint>
#include <deque>
#include <vector>

#include "../cudnn_graph.hpp"
#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

struct CudnnSdpaShape {
  std::int64_t batch = 1, heads = 1, seq = 1, head_dim = 1;
  bool causal = false;
};

struct CudnnSdpaGraph {
  // Q, K, V, O in device memory; the scale and the masked score by value; the
  // intermediates' uids count up from kFirstVirtual.
  enum Uid : std::int64_t { kQ = 1, kK, kV, kO, kScale, kMasked, kFirstVirtual = 100 };
  std::deque<CudnnDescriptor> tensors;  // a deque: the operations hold references into it
  std::vector<CudnnDescriptor> operations;
  std::vector<const CudnnDescriptor*> ops() const;
};

// Q, K, V, O [batch, heads, seq, head_dim] contiguous in `dtype` (bf16 or f16).
CudnnSdpaGraph cudnn_sdpa_graph(DType dtype, const CudnnSdpaShape& shape);

}  // namespace ridgeline
