// The fused attention for AVX-512 (F, DQ, BW, VL; flags in kernels/CMakeLists.txt): blocks of
// 32 query rows (2 zmm), chunks of 8 keys: 16 score registers, then 16 probabilities beside
// 6 x 2 output accumulators (28 of the 32 zmm registers). Each broadcast of K or V feeds two
// FMAs; with one (16 rows x 16 keys) it ran 10% slower on Zen 5 (docs/attention.md).
#include "attention_fused_body.hpp"
#include "simd_avx512.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_avx512 = attention_table<F32x16, 2, 8, 6>();
}  // namespace ridgeline::ops::detail
