// gemm_bias_act: C = act(A * B + bias), A m x k, B k x n, bias broadcast over the rows of C;
// act = gelu_tanh (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) or relu. Fused, the
// bias and activation are applied to the register tile before it is stored; unfused, the
// GEMM writes C, then a bias pass and an activation pass each read and write C.
#include "op_definitions.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline::ops {

namespace {

// FLOPs per element of the activation: gelu_tanh is x*x, *x, fma(0.044715, x^3, x), the
// scale by sqrt(2/pi), tanh (counted as one, as exp is), 1 +, 0.5 * x, and the product: 9.
double act_flops(const Problem& p) {
  return p.params.attr("act") == "relu" ? 1.0 : 9.0;
}

std::vector<OperandSpec> operands(const Problem& p) {
  const Shape s = gemm_shape(p);
  return {{"A", OperandRole::input, {"m", "k"}, s.m * s.k, p.dtype},
          {"B", OperandRole::input, {"k", "n"}, s.k * s.n, p.dtype},
          {"bias", OperandRole::weight, {"n"}, s.n, p.dtype},
          {"C", OperandRole::output, {"m", "n"}, s.m * s.n, output_dtype(p.dtype)}};
}

double flops(const Problem& p) {
  const double m = dim(p, "m"), n = dim(p, "n"), k = dim(p, "k");
  return 2.0 * m * n * k + m * n * (1.0 + act_flops(p));
}

WorkModel fused(const Problem& p) {
  const double m = dim(p, "m"), n = dim(p, "n"), k = dim(p, "k");
  return dram_work(flops(p), (m * k + k * n + n) * in_bytes(p) + m * n * out_bytes(p));
}

std::vector<PassWork> unfused(const Problem& p) {
  const double m = dim(p, "m"), n = dim(p, "n"), k = dim(p, "k");
  const double c = m * n * out_bytes(p);
  return {dram_pass("gemm", 2.0 * m * n * k, (m * k + k * n) * in_bytes(p) + c),  // A, B in; C out
          dram_pass("bias", m * n, n * in_bytes(p) + 2.0 * c),      // C, bias in; C out
          dram_pass("activation", m * n * act_flops(p), 2.0 * c)};  // C in place
}

double tolerance(const Problem& p) {
  return gemm_tolerance(p) + elementwise_tolerance(p, act_flops(p));
}

}  // namespace

OpDefinition gemm_bias_act_definition() {
  OpDefinition op;
  op.name = "gemm_bias_act";
  op.description = "C = act(A * B + bias), the activation applied in the GEMM's store";
  op.dims = {required_dim("m", "rows of C"), required_dim("n", "columns of C"),
             required_dim("k", "the inner dimension")};
  op.attrs = {{"act", {"gelu_tanh", "relu"}, "the activation after the bias"}};
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "m=64,n=64,k=64";
  op.awkward = {"m=1,n=1,k=1", "m=37,n=53,k=29/act=relu", "m=130,n=67,k=300/act=gelu_tanh"};
  op.operands = operands;
  op.work = fused;
  op.unfused_passes = unfused;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::gemm_bias_act;
  return op;
}

}  // namespace ridgeline::ops
