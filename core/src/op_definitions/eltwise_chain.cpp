// eltwise_chain: L cheap unary ops applied in turn to n elements. Fused: one read and one
// write per element whatever L is; unfused: each op a pass that reads and writes the whole
// array, so the fused intensity grows with L while the unfused one stays flat. The steps
// are those of core/ops/eltwise_chain.hpp.
#include "ridgeline/core/ops/eltwise_chain.hpp"

#include <fmt/format.h>

#include "op_definitions.hpp"

namespace ridgeline {

double eltwise_chain_flops_per_element(std::int64_t length) {
  constexpr double kFlops[4] = {2, 1, 1, 2};
  double flops = 0;
  for (std::int64_t i = 0; i < length; ++i) flops += kFlops[i % 4];
  return flops;
}

namespace ops {

namespace {

std::vector<OperandSpec> operands(const Problem& p) {
  const std::int64_t n = p.params.dim("n");
  return {{"x", OperandRole::input, {"n"}, n, p.dtype},
          {"y", OperandRole::output, {"n"}, n, p.dtype}};
}

double flops(const Problem& p) {
  return dim(p, "n") * eltwise_chain_flops_per_element(p.params.dim("L"));
}

WorkModel fused(const Problem& p) {
  return dram_work(flops(p), 2.0 * dim(p, "n") * in_bytes(p));
}

// Each step reads and writes the whole array: "1.affine", "2.relu", "3.scale", "4.affine", ...
std::vector<PassWork> unfused(const Problem& p) {
  static constexpr const char* kStep[4] = {"affine", "relu", "scale", "affine"};
  const double n = dim(p, "n");
  std::vector<PassWork> passes;
  for (std::int64_t i = 0; i < p.params.dim("L"); ++i)
    passes.push_back(
        dram_pass(fmt::format("{}.{}", i + 1, kStep[i % 4]),
                  n * (eltwise_chain_flops_per_element(i + 1) - eltwise_chain_flops_per_element(i)),
                  2.0 * n * in_bytes(p)));
  return passes;
}

double tolerance(const Problem& p) {
  return elementwise_tolerance(p, 2.0 * dim(p, "L"));
}

}  // namespace

OpDefinition eltwise_chain_definition() {
  OpDefinition op;
  op.name = "eltwise_chain";
  op.description = "L unary ops in turn on n elements";
  op.dims = {required_dim("n", "elements"),
             required_dim("L", "ops in the chain", kEltwiseChainMaxLength)};
  op.dtypes = {DType::f32, DType::bf16};
  op.example = "n=4096,L=4";
  op.awkward = {"n=1,L=1", "n=17,L=3", "n=4099,L=32", "n=65537,L=2"};
  op.operands = operands;
  op.work = fused;
  op.unfused_passes = unfused;
  op.tolerance = tolerance;
  op.reference = ReferenceKind::eltwise_chain;
  return op;
}

}  // namespace ops
}  // namespace ridgeline
