// The bf16 AVX-512 micro-kernel (AVX512_BF16): bf16 A and B, f32 C, f32 accumulation with
// vdpbf16ps. The f32 kernel's 14 x 32 tile: 28 zmm accumulators, each 16 columns of C; per
// pair of k steps 2 loads of B (16 columns x 2 k each) and 14 32-bit broadcasts of
// A[i][p], A[i][p+1]. One vdpbf16ps is 32 multiply-adds against an FMA's 16, so the tile
// does twice the f32 kernel's work per instruction with the same registers. Also the
// gemm_bias_act epilogue (bf16 bias, widened as it is loaded) and the unfused bias pass.
#include <cstdint>
#include <cstring>

#include "../ops/bf16_avx512.hpp"
#include "../ops/simd_avx512.hpp"
#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

// The packed operands' side for bf16 pairs (microkernel.hpp gives the layout); C, the
// epilogue and the activations are F32x16's.
struct Bf16Pairs : ops::F32x16 {
  using In = std::uint16_t;
  using VIn = __m512bh;
  static constexpr int kK = 2;
  static VIn load_in(const In* p) { return (__m512bh)_mm512_load_si512(p); }
  static VIn broadcast_in(const In* p) {
    std::int32_t pair;
    std::memcpy(&pair, p, sizeof pair);
    return (__m512bh)_mm512_set1_epi32(pair);
  }
  static V dot(VIn a, VIn b, V acc) { return _mm512_dpbf16_ps(acc, a, b); }
  static V load_bias(const In* p) { return ops::widen_bf16(p); }
};

}  // namespace

MicroKernel<std::uint16_t, float> microkernel_bf16_avx512() {
  return {"gemm_bf16_avx512_14x32",
          14,
          32,
          &kernel<Bf16Pairs, 14, 2>,
          &kernel_rows<Bf16Pairs, 14, 2>,
          &kernel_epilogue<Bf16Pairs, 14, 2>,
          &pack_panel_bf16_avx512};
}
EpiloguePasses<std::uint16_t> epilogue_passes_bf16_avx512() {
  return {&add_bias_rows<Bf16Pairs>, &activate_pass<Bf16Pairs>};
}

}  // namespace ridgeline::packed
