// The fused attention for AVX2 + FMA (flags in kernels/CMakeLists.txt): blocks of 16 query
// rows (2 ymm), chunks of 4 keys: 8 probabilities beside 2 x 2 output accumulators, 12 of the
// 16 ymm registers (13% faster than 8 rows x 8 keys on Zen 5).
#include "attention_fused_body.hpp"
#include "simd_avx2.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_avx2 = attention_table<F32x8, 2, 4, 2>();
}  // namespace ridgeline::ops::detail
