#pragma once
// The gemm op's own view of its params, for the gemm kernels (and gemm_bias_act's, which
// share m, n, k): C = op(A) * op(B), all matrices row-major.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ridgeline/core/problem.hpp"

namespace ridgeline {

// The first letter says whether A is stored transposed (k x m), the second whether B is
// (n x k).
enum class Layout { NN, NT, TN, TT };

std::string_view to_string(Layout layout);
std::optional<Layout> parse_layout(std::string_view text);
inline bool transposes_a(Layout l) {
  return l == Layout::TN || l == Layout::TT;
}
inline bool transposes_b(Layout l) {
  return l == Layout::NT || l == Layout::TT;
}

struct Shape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  std::int64_t batch = 1;
  bool operator==(const Shape&) const = default;
};

// m, n, k (and batch, 1 where the op has none) of a gemm or gemm_bias_act problem.
Shape gemm_shape(const Problem& problem);
// The layout attribute; NN for an op without one (gemm_bias_act).
Layout gemm_layout(const Problem& problem);
// A gemm problem (checked against the op's definition).
Problem gemm_problem(const Shape& shape, Layout layout = Layout::NN, DType dtype = DType::f32,
                     std::string pattern = "normal");

// 16 * sqrt(k) * u: a statistical bound on a k-long dot product's relative error in any
// summation order (u of the output type where it is coarser).
double gemm_tolerance(const Problem& problem);

}  // namespace ridgeline
