// The fused bf16 attention of the AMX path (attention_amx_body.hpp) on the tile model and one
// lane, so that it runs, and is tested, on every CPU; baseline flags.
#include "../cpu/amx_tiles.hpp"
#include "attention_amx_body.hpp"
#include "ridgeline/core/dtype.hpp"

namespace ridgeline::ops {
namespace {

struct AttentionAmxOneLane {
  using S = F32x1;
  static void pair(float a, float b, std::uint32_t* out) {
    *out = std::uint32_t{to_bf16(a)} | std::uint32_t{to_bf16(b)} << 16;
  }
  static void narrow(const float* src, std::uint16_t* dst, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) dst[i] = to_bf16(src[i]);
  }
};

using AmxModelFlash = AmxFlash<amx::ModelTilesOfThread, AttentionAmxOneLane>;

}  // namespace

namespace detail {
const AttentionAmx attention_amx_model = {&AmxModelFlash::scratch, &AmxModelFlash::run};
}  // namespace detail

}  // namespace ridgeline::ops
