// The fused attention for AArch64 NEON (baseline: no flags): blocks of 16 query rows (4
// vectors), chunks of 4 keys: 16 probabilities beside 2 x 4 output accumulators, 25 of the 32
// vector registers with the broadcast. Each broadcast of K or V feeds four FMAs. The shape is
// chosen by register count, not yet measured on an Arm core.
#include "attention_fused_body.hpp"
#include "simd_neon.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_neon = attention_table<F32x4, 4, 4, 2>();
}  // namespace ridgeline::ops::detail
