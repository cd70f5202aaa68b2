#pragma once
// The row-wise ops' own view of their params (softmax, layernorm, rmsnorm: rows x cols,
// row-major), for their kernels and references.
#include <cstdint>

#include "ridgeline/core/problem.hpp"

namespace ridgeline {

// The eps under the square root of layernorm and rmsnorm.
inline constexpr float kNormEpsilon = 1e-5f;

struct RowShape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

inline RowShape row_shape(const Problem& p) {
  return {p.params.dim("rows"), p.params.dim("cols")};
}

}  // namespace ridgeline
