// layernorm: y = (x - mean) / sqrt(var + eps) * gamma + beta; rmsnorm: y = x /
// sqrt(mean(x^2) + eps) * gamma; row by row, biased variance, eps = 1e-5, gamma and beta
// of length cols. Fused: one pass (the row stays in cache). Unfused, each step a pass.
#include <cmath>

#include "op_definitions.hpp"

namespace ridgeline::ops {

namespace {

std::vector<OperandSpec> norm_operands(const Problem& p, bool with_beta) {
  const std::int64_t cols = p.params.dim("cols");
  const std::int64_t elements = p.params.dim("rows") * cols;
  std::vector<OperandSpec> o{{"x", OperandRole::input, {"rows", "cols"}, elements, p.dtype},
                             {"gamma", OperandRole::weight, {"cols"}, cols, p.dtype}};
  if (with_beta) o.push_back({"beta", OperandRole::weight, {"cols"}, cols, p.dtype});
  o.push_back({"y", OperandRole::output, {"rows", "cols"}, elements, p.dtype});
  return o;
}

// Per element: sum, subtract, square and add, scale by 1/sigma, gamma * x + beta (7); per
// row: the two divisions, + eps, sqrt, reciprocal (5).
double layernorm_flops(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols");
  return 7.0 * r * c + 5.0 * r;
}

WorkModel layernorm_fused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols");
  return dram_work(layernorm_flops(p), (2.0 * r * c + 2.0 * c) * in_bytes(p));
}

// Mean (reads x, writes a row vector), centre (reads x and the means, writes xc), variance
// (reads xc, writes a row vector), normalise (reads xc and 1/sigma, writes xn), scale and
// shift (reads xn, gamma, beta, writes y).
WorkModel layernorm_unfused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols");
  return dram_work(layernorm_flops(p), (8.0 * r * c + 2.0 * c + 4.0 * r) * in_bytes(p));
}

// Per element: square and add, scale by 1/rms, times gamma (4); per row 4.
double rmsnorm_flops(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols");
  return 4.0 * r * c + 4.0 * r;
}

WorkModel rmsnorm_fused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols");
  return dram_work(rmsnorm_flops(p), (2.0 * r * c + c) * in_bytes(p));
}

// Sum of squares (reads x, writes a row vector), normalise (reads x and 1/rms, writes
// xn), scale (reads xn and gamma, writes y).
WorkModel rmsnorm_unfused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols");
  return dram_work(rmsnorm_flops(p), (5.0 * r * c + c + 2.0 * r) * in_bytes(p));
}

// Relative to the output's scale (|gamma| times a few): mean and variance round like a
// sum of cols terms.
double norm_tolerance(const Problem& p) {
  return elementwise_tolerance(p, 7.0 + std::sqrt(dim(p, "cols")));
}

std::vector<DimSpec> row_dims() {
  return {required_dim("rows", "independent rows"), required_dim("cols", "elements per row")};
}

}  // namespace

OpDefinition layernorm_definition() {
  OpDefinition op;
  op.name = "layernorm";
  op.description = "row-wise layer normalisation with gamma and beta, eps 1e-5";
  op.dims = row_dims();
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "rows=64,cols=64";
  op.operands = [](const Problem& p) { return norm_operands(p, true); };
  op.work = layernorm_fused;
  op.unfused_work = layernorm_unfused;
  op.tolerance = norm_tolerance;
  return op;
}

OpDefinition rmsnorm_definition() {
  OpDefinition op;
  op.name = "rmsnorm";
  op.description = "row-wise RMS normalisation with gamma, eps 1e-5";
  op.dims = row_dims();
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "rows=64,cols=64";
  op.operands = [](const Problem& p) { return norm_operands(p, false); };
  op.work = rmsnorm_fused;
  op.unfused_work = rmsnorm_unfused;
  op.tolerance = norm_tolerance;
  return op;
}

}  // namespace ridgeline::ops
