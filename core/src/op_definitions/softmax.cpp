// softmax: y = exp(x - max_row) / sum_row exp(x - max_row), row by row. Fused: one read
// of x and one write of y. Unfused, the way an eager framework composes it from
// primitives: row maxima; t = x - max; t = exp(t); row sums; y = t / sum.
#include <cmath>

#include "op_definitions.hpp"

namespace ridgeline::ops {

namespace {

std::vector<OperandSpec> operands(const Problem& p) {
  const std::int64_t elements = p.params.dim("rows") * p.params.dim("cols");
  return {{"x", OperandRole::input, {"rows", "cols"}, elements, p.dtype},
          {"y", OperandRole::output, {"rows", "cols"}, elements, p.dtype}};
}

// Per element: the max, the subtraction, exp (counted as one), the sum and the division.
double flops(const Problem& p) {
  return 5.0 * dim(p, "rows") * dim(p, "cols");
}

WorkModel fused(const Problem& p) {
  return dram_work(flops(p), 2.0 * dim(p, "rows") * dim(p, "cols") * in_bytes(p));
}

// One FLOP per element in each pass; 8 full arrays' worth of elements and 4 row vectors.
std::vector<PassWork> unfused(const Problem& p) {
  const double r = dim(p, "rows"), c = dim(p, "cols"), e = in_bytes(p);
  return {dram_pass("max", r * c, (r * c + r) * e),             // x in, maxima out
          dram_pass("subtract", r * c, (2.0 * r * c + r) * e),  // x, maxima in; t out
          dram_pass("exp", r * c, 2.0 * r * c * e),             // t in place
          dram_pass("sum", r * c, (r * c + r) * e),             // t in, sums out
          dram_pass("divide", r * c, (2.0 * r * c + r) * e)};   // t, sums in; y out
}

// Relative to the largest output of the row (at most 1): the sum's rounding grows like
// sqrt(cols) in any order.
double tolerance(const Problem& p) {
  return elementwise_tolerance(p, 5.0 + std::sqrt(dim(p, "cols")));
}

}  // namespace

OpDefinition softmax_definition() {
  OpDefinition op;
  op.name = "softmax";
  op.description = "row-wise softmax, max-subtracted";
  op.dims = {required_dim("rows", "independent rows"), required_dim("cols", "elements per row")};
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "rows=64,cols=64";
  op.awkward = {"rows=1,cols=1", "rows=3,cols=17", "rows=2,cols=4099", "rows=67,cols=129"};
  op.operands = operands;
  op.work = fused;
  op.unfused_passes = unfused;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::softmax;
  return op;
}

}  // namespace ridgeline::ops
