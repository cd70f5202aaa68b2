// The fused attention for AArch64 NEON (baseline: no flags): blocks of 16 query rows (4
// vectors), chunks of 4 keys: 16 probabilities beside 2 x 4 output accumulators, 25 of the 32
// vector registers with the broadcast. Each broadcast of K or V feeds four FMAs. The shape is
// chosen by register count, not yet measured on an Arm core.
// bf16 on every AArch64 CPU (Bf16x4 is baseline NEON, no FEAT_BF16): the same tiles over f32
// scratch, the operands widened on the way in and O narrowed on the way out; and the unfused
// chain's two bf16 passes (the scale of Q, the narrowing of the GEMMs' f32 output).
#include "attention_bf16_passes.hpp"
#include "attention_fused_body.hpp"
#include "bf16_neon.hpp"
#include "simd_neon.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_neon = attention_table<F32x4, 4, 4, 2, Bf16x4>();
const AttentionBf16Passes attention_bf16_passes_neon = attention_bf16_passes<F32x4, Bf16x4>();
}  // namespace ridgeline::ops::detail
