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

// The per-row divisions, + eps, sqrt and reciprocal go with the pass that needs them.
std::vector<PassWork> layernorm_unfused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols"), e = in_bytes(p);
  return {dram_pass("mean", r * c + r, (r * c + r) * e),                   // x in, means out
          dram_pass("centre", r * c, (2.0 * r * c + r) * e),               // x, means in; d out
          dram_pass("variance", 2.0 * r * c + r, (r * c + r) * e),         // d in, vars out
          dram_pass("normalise", r * c + 3.0 * r, (2.0 * r * c + r) * e),  // d, vars in; d out
          dram_pass("scale_shift", 2.0 * r * c, (2.0 * r * c + 2.0 * c) * e)};  // d, gamma,
                                                                                // beta in; y out
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

// Square as its own pass, as an eager x.pow(2).mean() runs it; the per-row 1/cols goes with
// the mean, + eps, sqrt and reciprocal with the normalisation.
std::vector<PassWork> rmsnorm_unfused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols"), e = in_bytes(p);
  return {dram_pass("square", r * c, 2.0 * r * c * e),                     // x in, s out
          dram_pass("mean_square", r * c + r, (r * c + r) * e),            // s in, means out
          dram_pass("normalise", r * c + 3.0 * r, (2.0 * r * c + r) * e),  // x, means in; s out
          dram_pass("scale", r * c, (2.0 * r * c + c) * e)};               // s, gamma in; y out
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
  op.awkward = {"rows=1,cols=1", "rows=3,cols=17", "rows=2,cols=4099", "rows=67,cols=129"};
  op.operands = [](const Problem& p) { return norm_operands(p, true); };
  op.work = layernorm_fused;
  op.unfused_passes = layernorm_unfused;
  op.tolerance = norm_tolerance;
  op.reference = ReferenceKind::layernorm;
  return op;
}

OpDefinition rmsnorm_definition() {
  OpDefinition op;
  op.name = "rmsnorm";
  op.description = "row-wise RMS normalisation with gamma, eps 1e-5";
  op.dims = row_dims();
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "rows=64,cols=64";
  op.awkward = {"rows=1,cols=1", "rows=3,cols=17", "rows=2,cols=4099", "rows=67,cols=129"};
  op.operands = [](const Problem& p) { return norm_operands(p, false); };
  op.work = rmsnorm_fused;
  op.unfused_passes = rmsnorm_unfused;
  op.tolerance = norm_tolerance;
  op.reference = ReferenceKind::rmsnorm;
  return op;
}

}  // namespace ridgeline::ops
