// The AMX micro-kernels on the instructions (amx_microkernel.hpp), built with the tile
// instructions and AVX-512 (the B packing and the epilogue's bias and activation). Used only
// where amx_support() allows; each thread of the driver loads the tile configuration before
// its share and releases the tiles after it.
#include "amx_microkernel.hpp"

#include "../ops/activation_simd.hpp"
#include "../ops/bf16_avx512.hpp"
#include "../ops/simd_avx512.hpp"
#include "amx_hardware_tiles.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

using HardwareTiles = amx::HardwareTilesOfThread;

// The 32 x 32 block just stored, still in L1: bias (bf16, widened) and activation, one row of
// two vectors at a time, into C.
struct FinishAvx512 {
  template <ops::Activation kAct>
  static void rows(const float* x, std::int64_t ldx, float* c, std::int64_t ldc,
                   const std::uint16_t* bias) {
    using S = ops::F32x16;
    const __m512 b0 = ops::widen_bf16(bias), b1 = ops::widen_bf16(bias + 16);
    for (int i = 0; i < amx_gemm::kMR; ++i) {
      const float* in = x + i * ldx;
      float* row = c + i * ldc;
      S::store(row, ops::activate<S>(S::add(S::load(in), b0), kAct));
      S::store(row + 16, ops::activate<S>(S::add(S::load(in + 16), b1), kAct));
    }
  }
  static void apply(const float* x, std::int64_t ldx, float* c, std::int64_t ldc,
                    const std::uint16_t* bias, ops::Activation act) {
    if (act == ops::Activation::relu)
      rows<ops::Activation::relu>(x, ldx, c, ldc, bias);
    else
      rows<ops::Activation::gelu_tanh>(x, ldx, c, ldc, bias);
  }
};

}  // namespace

MicroKernel<std::uint16_t, float> microkernel_bf16_amx() {
  using In = std::uint16_t;
  return amx_gemm::micro_kernel<HardwareTiles, In, &pack_panel_bf16_avx512>(
      "gemm_bf16_amx_32x32", &amx_gemm::kernel_epilogue<HardwareTiles, FinishAvx512, In>);
}

MicroKernel<std::int8_t, std::int32_t> microkernel_i8_amx() {
  return amx_gemm::micro_kernel<HardwareTiles, std::int8_t, &pack_panel_i8_avx512>(
      "gemm_i8_amx_32x32", nullptr);
}

}  // namespace ridgeline::packed
