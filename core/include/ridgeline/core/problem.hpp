#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

// Operand layouts of C = op(A) * op(B), all matrices row-major: the first letter says
// whether A is stored transposed (k x m), the second whether B is (n x k).
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

struct Problem {
  std::string op = "gemm";
  Shape shape;
  Layout layout = Layout::NN;
  DType dtype = DType::f32;
  std::string pattern = "normal";
  bool operator==(const Problem&) const = default;
};

// "m=1024,n=1024,k=1024" (",batch=B" only when B > 1).
std::string shape_label(const Shape& shape);
// Bytes of the A, B and C buffers together.
std::uint64_t operand_bytes(const Problem& problem);

}  // namespace ridgeline
