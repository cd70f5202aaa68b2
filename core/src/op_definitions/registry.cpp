// The ops the suite knows, in the order `ridgeline list` shows them. Adding an op is one
// file beside this one and one line here (docs/adding-an-op.md).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "op_definitions.hpp"
#include "ridgeline/core/error.hpp"

namespace ridgeline {

namespace {

std::deque<OpDefinition>& registry() {
  static std::deque<OpDefinition> ops{
      ops::gemm_definition(),      ops::gemm_bias_act_definition(), ops::softmax_definition(),
      ops::layernorm_definition(), ops::rmsnorm_definition(),       ops::eltwise_chain_definition(),
      ops::attention_definition(), ops::einsum_definition(),        ops::allreduce_definition(),
      ops::tp_gemm_definition(),   ops::callable_definition(),
  };
  return ops;
}

}  // namespace

const std::deque<OpDefinition>& op_registry() {
  return registry();
}

void register_op(OpDefinition op) {
  if (find_op(op.name)) throw InputError(fmt::format("op '{}' is registered already", op.name));
  registry().push_back(std::move(op));
}

namespace ops {

// One rounding of the stored result, at the precision the op's output operand is stored in
// (a bf16 softmax stores bf16; the GEMMs' C is output_dtype(bf16) = f32), plus `ops`
// roundings of the arithmetic, which runs in f32 or wider whatever the storage (bf16 and f16
// are storage types here, as in every framework); 8 units of each for safety. The stored
// term also covers an eager chain that stores a few bf16 intermediates (the unfused bf16
// softmax was seen 9.6e-3 off, relative to the row's largest output). Charging every op at the
// storage precision would give a bf16 softmax over 4096 columns a bound above 2, which nothing
// could fail.
double elementwise_tolerance(const Problem& p, double ops) {
  constexpr double kF32 = 0x1p-24;
  DType out = output_dtype(p.dtype);
  for (const OperandSpec& o : op_definition(p.op).operands(p))
    if (o.role == OperandRole::output) out = o.dtype;
  const double u_out = unit_roundoff(out) > 0 ? unit_roundoff(out) : kF32;  // integers: f32
  return 8.0 * (u_out + ops * std::min(u_out, kF32));
}

}  // namespace ops
}  // namespace ridgeline
