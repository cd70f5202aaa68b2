#pragma once
// The activations of gemm_bias_act (core/src/op_definitions/gemm_bias_act.cpp), as every kernel of
// the op names them: the packed GEMM's epilogue, the unfused passes, oneDNN's post-op.
#include <string>

#include "ridgeline/core/problem.hpp"

namespace ridgeline::ops {

// relu: max(x, 0); gelu_tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
enum class Activation { relu, gelu_tanh };

inline std::string to_string(Activation act) {
  return act == Activation::relu ? "relu" : "gelu_tanh";
}

// The problem's `act` attribute (the op's definition guarantees one of the two).
inline Activation activation_of(const Problem& problem) {
  return problem.params.attr("act") == "relu" ? Activation::relu : Activation::gelu_tanh;
}

}  // namespace ridgeline::ops
