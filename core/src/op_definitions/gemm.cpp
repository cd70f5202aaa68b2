// gemm: C = op(A) * op(B) in the problem's dtype (i8 accumulates into i32; tf32, bf16 and
// f16 into f32), row-major, with an optional batch.
#include "ridgeline/core/ops/gemm.hpp"

#include <array>
#include <cmath>

#include "op_definitions.hpp"

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

Shape gemm_shape(const Problem& p) {
  const auto batch = p.params.dims.find("batch");
  return {p.params.dim("m"), p.params.dim("n"), p.params.dim("k"),
          batch == p.params.dims.end() ? 1 : batch->second};
}

Layout gemm_layout(const Problem& p) {
  const auto it = p.params.attrs.find("layout");
  return it == p.params.attrs.end() ? Layout::NN : parse_layout(it->second).value_or(Layout::NN);
}

Problem gemm_problem(const Shape& shape, Layout layout, DType dtype, std::string pattern) {
  Problem p;
  p.op = "gemm";
  p.params =
      checked_params(op_definition("gemm"),
                     {{{"m", shape.m}, {"n", shape.n}, {"k", shape.k}, {"batch", shape.batch}},
                      {{"layout", std::string(to_string(layout))}}});
  p.dtype = dtype;
  p.pattern = std::move(pattern);
  return p;
}

double gemm_tolerance(const Problem& problem) {
  // Integer products are exact: any wrong entry is off by at least 1 / sum|a||b| (> 1e-12
  // for every size that fits in i32), while the Freivalds projections, done in long
  // double with real weights, carry rounding near 1e-18.
  if (unit_roundoff(problem.dtype) == 0) return 1e-12;
  // Sums accumulate in C's type; bf16 and f16 inputs are exact there (their products too),
  // while tf32 tensor cores drop the low 13 bits of each f32 input: up to 2^-10 relative
  // error per input, so 2 * 2^-10 per product, relative to sum |a||b| whatever k is.
  const double input_rounding = problem.dtype == DType::tf32 ? 0x1p-10 : 0.0;
  return 2 * input_rounding + 16.0 * std::sqrt(static_cast<double>(gemm_shape(problem).k)) *
                                  unit_roundoff(output_dtype(problem.dtype));
}

namespace ops {

namespace {

std::vector<OperandSpec> gemm_operands(const Problem& p) {
  const Shape s = gemm_shape(p);
  const Layout l = gemm_layout(p);
  const std::string batch = s.batch > 1 ? "batch" : "";
  auto dims = [&](const char* rows, const char* cols) {
    std::vector<std::string> d;
    if (!batch.empty()) d.push_back(batch);
    d.push_back(rows);
    d.push_back(cols);
    return d;
  };
  return {{"A", OperandRole::input, transposes_a(l) ? dims("k", "m") : dims("m", "k"),
           s.m * s.k * s.batch, p.dtype},
          {"B", OperandRole::input, transposes_b(l) ? dims("n", "k") : dims("k", "n"),
           s.k * s.n * s.batch, p.dtype},
          {"C", OperandRole::output, dims("m", "n"), s.m * s.n * s.batch, output_dtype(p.dtype)}};
}

WorkModel gemm_op_work(const Problem& p) {
  const Shape s = gemm_shape(p);
  const double m = static_cast<double>(s.m), n = static_cast<double>(s.n),
               k = static_cast<double>(s.k), b = static_cast<double>(s.batch);
  return dram_work(2.0 * m * n * k * b, ((m * k + k * n) * in_bytes(p) + m * n * out_bytes(p)) * b);
}

}  // namespace

OpDefinition gemm_definition() {
  OpDefinition op;
  op.name = "gemm";
  op.description = "C = op(A) * op(B), row-major; i8 accumulates into i32";
  op.dims = {required_dim("m", "rows of C"), required_dim("n", "columns of C"),
             required_dim("k", "the inner dimension"),
             defaulted_dim("batch", 1, "independent products")};
  op.attrs = {{"layout", {"NN", "NT", "TN", "TT"}, "whether A and B are stored transposed"}};
  op.dtypes = {DType::f32, DType::f64, DType::tf32, DType::bf16, DType::f16, DType::i8};
  op.example = "m=64,n=64,k=64";
  // 300x200x1100 crosses the packed rung's mc and kc blocks, 20x4200x20 its nc.
  op.awkward = {"m=1,n=1,k=1",
                "m=37,n=53,k=29/layout=NT",
                "m=130,n=67,k=300/layout=TN",
                "m=1,n=4096,k=1/layout=TT",
                "m=300,n=200,k=1100",
                "m=20,n=4200,k=20"};
  op.operands = gemm_operands;
  op.work = gemm_op_work;
  op.tolerance = gemm_tolerance;
  op.reference = ReferenceKind::gemm;
  return op;
}

}  // namespace ops
}  // namespace ridgeline
