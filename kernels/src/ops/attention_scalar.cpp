// The fused attention over one-lane "vectors" (plain floats), compiled for the library's
// baseline: the fallback where neither AVX-512 nor AVX2 + FMA is present. One query row per
// block, chunks of 8 keys.
#include "attention_fused_body.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_scalar = attention_table<F32x1, 1, 8, 4>();
}  // namespace ridgeline::ops::detail
