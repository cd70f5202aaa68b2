// The AMX micro-kernels on the tile model (amx_tiles.hpp): the same code as on the
// instructions (amx_microkernel.hpp), on plain C++ of their documented semantics, so the rung
// is checked on every CPU. Each thread has its own model tiles; the epilogue is scalar.
#include <cmath>

#include "amx_microkernel.hpp"
#include "panel_packing.hpp"
#include "ridgeline/core/dtype.hpp"

namespace ridgeline::packed {

namespace {

using ModelTiles = amx::ModelTilesOfThread;

// gemm_bias_act's activations as the op defines them (activation.hpp).
struct FinishScalar {
  static void apply(const float* in, std::int64_t ldx, float* c, std::int64_t ldc,
                    const std::uint16_t* bias, ops::Activation act) {
    for (int i = 0; i < amx_gemm::kMR; ++i)
      for (int j = 0; j < amx_gemm::kNR; ++j) {
        const float x = in[i * ldx + j] + from_bf16(bias[j]);
        c[i * ldc + j] =
            act == ops::Activation::relu
                ? std::max(x, 0.0f)
                : 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
      }
  }
};

}  // namespace

MicroKernel<std::uint16_t, float> microkernel_bf16_amx_model() {
  using In = std::uint16_t;
  return amx_gemm::micro_kernel<ModelTiles, In, &pack_panel<std::uint16_t>>(
      "gemm_bf16_amx_32x32 (tile model)", &amx_gemm::kernel_epilogue<ModelTiles, FinishScalar, In>);
}

MicroKernel<std::int8_t, std::int32_t> microkernel_i8_amx_model() {
  return amx_gemm::micro_kernel<ModelTiles, std::int8_t, &pack_panel<std::int8_t>>(
      "gemm_i8_amx_32x32 (tile model)", nullptr);
}

}  // namespace ridgeline::packed
