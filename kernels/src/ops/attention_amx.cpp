// The fused bf16 attention on the AMX instructions (attention_amx_body.hpp), the softmax and
// the narrowing in AVX-512 (AVX512_BF16); built with the tile and AVX-512 flags
// (kernels/CMakeLists.txt), called only where amx_support() found the bf16 tiles usable.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"  // GCC bug 105593, as in attention_avx512.cpp
#endif
#include "../cpu/amx_hardware_tiles.hpp"
#include "attention_amx_body.hpp"
#include "bf16_avx512.hpp"
#include "simd_avx512.hpp"

namespace ridgeline::ops {
namespace {

struct AttentionAmxAvx512 {
  using S = F32x16;
  // Lane n's pair (a[n], b[n]) as one 32-bit word: both rounded in one convert, then
  // interleaved (a's bf16 in the low half).
  static void pair(__m512 a, __m512 b, std::uint32_t* out) {
    const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(b, a);  // a in 0..15, b in 16..31
    const __m512i order =
        _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6,
                         21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    _mm512_storeu_si512(out, _mm512_permutexvar_epi16(order, both));
  }
  static void narrow(const float* src, std::uint16_t* dst, std::int64_t n) {
    narrow_bf16_row(src, dst, n);
  }
};

using AmxTiles = AmxFlash<amx::HardwareTilesOfThread, AttentionAmxAvx512>;

}  // namespace

namespace detail {
const AttentionAmx attention_amx_hardware = {&AmxTiles::scratch, &AmxTiles::run};
}  // namespace detail

}  // namespace ridgeline::ops
