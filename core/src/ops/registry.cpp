// The ops the suite knows, in the order `ridgeline list` shows them. Adding an op is one
// file beside this one and one line here (docs/adding-an-op.md).
#include <cmath>

#include "op_definitions.hpp"

namespace ridgeline {

const std::vector<OpDefinition>& op_registry() {
  static const std::vector<OpDefinition> ops{
      ops::gemm_definition(),      ops::gemm_bias_act_definition(), ops::softmax_definition(),
      ops::layernorm_definition(), ops::rmsnorm_definition(),       ops::eltwise_chain_definition(),
      ops::attention_definition(),
  };
  return ops;
}

namespace ops {

// The output type is the output operand's: p.dtype for the row-wise ops and attention (a bf16
// softmax stores bf16), output_dtype(p.dtype) for the GEMMs' C (bf16 inputs, f32 C).
double elementwise_tolerance(const Problem& p, double ops) {
  DType out = output_dtype(p.dtype);
  for (const OperandSpec& o : op_definition(p.op).operands(p))
    if (o.role == OperandRole::output) out = o.dtype;
  const double u = unit_roundoff(out);
  return 8.0 * (1.0 + ops) * (u > 0 ? u : 0x1p-24);
}

}  // namespace ops
}  // namespace ridgeline
