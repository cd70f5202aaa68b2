// The ops the suite knows, in the order `ridgeline list` shows them. Adding an op is one
// file beside this one and one line here (docs/adding-an-op.md).
#include <algorithm>
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

// The arithmetic runs in f32 or wider whatever the storage (bf16 and f16 are storage types
// here, as in every framework): `ops` roundings at that precision, then, for a narrower
// output, its one rounding on the store (2 units: oneDNN 2.6's bf16 softmax was seen 0.93 of
// a bf16 ulp off). Charging every op at the storage precision would give a bf16 softmax
// over 4096 columns a tolerance above 2, which nothing could fail.
double elementwise_tolerance(const Problem& p, double ops) {
  constexpr double kF32 = 0x1p-24;
  const double u_out = unit_roundoff(output_dtype(p.dtype));
  if (!(u_out > 0)) return 8.0 * (1.0 + ops) * kF32;  // integer outputs: f32 arithmetic
  const double u_compute = std::min(u_out, kF32);
  return 8.0 * (1.0 + ops) * u_compute + (u_out > kF32 ? 2.0 * u_out : 0.0);
}

}  // namespace ops
}  // namespace ridgeline
