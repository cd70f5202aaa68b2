#include "ridgeline/core/problem.hpp"

#include <fmt/format.h>

#include <array>

#include "ridgeline/core/work_model.hpp"

namespace ridgeline {

namespace {
constexpr std::array<std::pair<Layout, std::string_view>, 4> kLayouts{
    {{Layout::NN, "NN"}, {Layout::NT, "NT"}, {Layout::TN, "TN"}, {Layout::TT, "TT"}}};
}

std::string_view to_string(Layout layout) {
  for (auto& [l, name] : kLayouts)
    if (l == layout) return name;
  return "?";
}

std::optional<Layout> parse_layout(std::string_view text) {
  for (auto& [l, name] : kLayouts)
    if (name == text) return l;
  return std::nullopt;
}

std::string shape_label(const Shape& shape) {
  std::string label = fmt::format("m={},n={},k={}", shape.m, shape.n, shape.k);
  if (shape.batch > 1) label += fmt::format(",batch={}", shape.batch);
  return label;
}

std::uint64_t operand_bytes(const Problem& p) {
  const auto& s = p.shape;
  // A and B in the input type, C in the type it is stored in (i32 for i8 inputs).
  const auto inputs = static_cast<std::uint64_t>(s.m * s.k + s.k * s.n) * size_of(p.dtype);
  const auto output = static_cast<std::uint64_t>(s.m * s.n) * size_of(output_dtype(p.dtype));
  return (inputs + output) * static_cast<std::uint64_t>(s.batch);
}

WorkModel gemm_work(const Problem& p) {
  const auto& s = p.shape;
  WorkModel w;
  w.flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k) *
            static_cast<double>(s.batch);
  w.bytes["dram"] = static_cast<double>(operand_bytes(p));
  return w;
}

}  // namespace ridgeline
