#pragma once
// The memory-bound row-wise ops as their CPU and GPU kernels and their reference check switch
// on them. The op is fixed where a kernel or a check is registered (one per op, from
// kRowwiseOps), never read back from a problem's op name.
#include <string_view>

namespace ridgeline {

enum class RowwiseOp { softmax, layernorm, rmsnorm, eltwise_chain };

struct RowwiseOpName {
  RowwiseOp op;
  std::string_view name;  // the registry's (core/src/op_definitions/)
};

inline constexpr RowwiseOpName kRowwiseOps[] = {{RowwiseOp::softmax, "softmax"},
                                                {RowwiseOp::layernorm, "layernorm"},
                                                {RowwiseOp::rmsnorm, "rmsnorm"},
                                                {RowwiseOp::eltwise_chain, "eltwise_chain"}};

// Operands beyond x and y (the ops' definitions in core/src/op_definitions/ name the same).
constexpr bool has_gamma(RowwiseOp op) {
  return op == RowwiseOp::layernorm || op == RowwiseOp::rmsnorm;
}
constexpr bool has_beta(RowwiseOp op) {
  return op == RowwiseOp::layernorm;
}

}  // namespace ridgeline
