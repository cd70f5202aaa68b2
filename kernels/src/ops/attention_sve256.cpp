// The fused attention for SVE at a 256-bit vector length (simd_sve256.hpp;
// -msve-vector-bits=256), run only where this process's vector length is 256 bits (Neoverse
// V1): NEON's tile at twice the width, blocks of 32 query rows (4 vectors), chunks of 4 keys,
// 25 of the 32 vector registers. Chosen by register count, not yet measured on an Arm core.
// bf16 through NEON's conversions (bf16_neon.hpp, baseline): they only widen the operands
// into the f32 scratch and narrow O, row by row.
#include "attention_fused_body.hpp"
#include "bf16_neon.hpp"
#include "simd_sve256.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_sve256 = attention_table<F32x8Sve, 4, 4, 2, Bf16x4>();
}  // namespace ridgeline::ops::detail
