// The fused attention for AVX-512 (F, DQ, BW, VL; flags in kernels/CMakeLists.txt): blocks of
// 32 query rows (2 zmm), chunks of 8 keys: 16 score registers, then 16 probabilities beside
// 6 x 2 output accumulators (28 of the 32 zmm registers). Each broadcast of K or V feeds two
// FMAs; with one (16 rows x 16 keys) it ran 10% slower on Zen 5 (docs/attention.md).
// bf16 (AVX512_BF16, -mavx512bf16; called only where CPUID has it): the same tiles over f32
// scratch, the operands widened on the way in and O narrowed on the way out; and the
// unfused chain's two bf16 passes (the scale of Q, the narrowing of the GEMMs' f32 output).
// Inlined into the bf16 tiles, GCC 12's _mm512_undefined_* placeholders are also reported
// as "is used uninitialized" (GCC bug 105593, as in simd_avx512.hpp; fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "attention_bf16_passes.hpp"
#include "attention_fused_body.hpp"
#include "bf16_avx512.hpp"
#include "simd_avx512.hpp"

namespace ridgeline::ops::detail {
const AttentionFused attention_avx512 = attention_table<F32x16, 2, 8, 6, Bf16x16>();
const AttentionBf16Passes attention_bf16_passes_avx512 = attention_bf16_passes<F32x16, Bf16x16>();
}  // namespace ridgeline::ops::detail
