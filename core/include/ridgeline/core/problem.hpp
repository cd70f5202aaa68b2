#pragma once
#include <string>

#include "ridgeline/core/dtype.hpp"
#include "ridgeline/core/op.hpp"

namespace ridgeline {

// What a case computes: an op of the registry (core/op.hpp) with its params, on inputs of
// one dtype drawn from one data pattern.
struct Problem {
  std::string op = "gemm";
  OpParams params;
  DType dtype = DType::f32;
  std::string pattern = "normal";
  bool operator==(const Problem&) const = default;
};

}  // namespace ridgeline
