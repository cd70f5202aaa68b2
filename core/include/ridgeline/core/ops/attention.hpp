#pragma once
// The attention op's own view of its params (core/src/op_definitions/attention.cpp), for its
// kernels and reference: Q, K, V and O are [batch, heads, seq, head_dim], contiguous.
#include <cstdint>

#include "ridgeline/core/problem.hpp"

namespace ridgeline {

struct AttentionDims {
  std::int64_t batch = 1;
  std::int64_t heads = 0;
  std::int64_t seq = 0;
  std::int64_t head_dim = 0;
  bool causal = false;  // query i sees keys 0..i
};

inline AttentionDims attention_dims(const Problem& p) {
  return {p.params.dim("batch"), p.params.dim("heads"), p.params.dim("seq"),
          p.params.dim("head_dim"), p.params.attr("causal") == "1"};
}

}  // namespace ridgeline
