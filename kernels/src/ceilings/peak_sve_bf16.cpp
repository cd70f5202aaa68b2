// Peak chains for SVE's bf16 (HWCAP2_SVEBF16), at this process's vector length: BFDOT .s, .h,
// .h (VL/32 f32 lanes, each adding two bf16 products: VL/8 FLOPs an instruction) and BFMMLA
// .s, .h, .h (per 128-bit segment, a 2 x 4 bf16 matrix times a 4 x 2 one added to a 2 x 2 f32
// one: 32 FLOPs a segment, VL/4 an instruction). Built with +sve+bf16; called only where
// HWCAP2 has it. The chains' text is peak_sve_chains.hpp's.
#include "peak_sve_chains.hpp"

namespace ridgeline::ceilings {

// Operands of 2^-7 in bf16 (0x3C00: products of 2^-14, normal, so no flush-to-zero path is
// timed), accumulators from 1.0, as peak_neon_bf16.cpp's.
#define RIDGELINE_SVE_BF16(INSTRUCTION)                                                  \
  RIDGELINE_SVE_CHAINS("dup z30.h, #0x3c, lsl #8\n\tdup z31.h, #0x3c, lsl #8",           \
                       "fmov z\\r\\().s, #1.0", INSTRUCTION " z\\r\\().s, z30.h, z31.h", \
                       "fmov %s[first], s0")

RIDGELINE_SVE_PEAK(peak_bf16_sve_bfdot, float, 0, RIDGELINE_SVE_BF16("bfdot"))
RIDGELINE_SVE_PEAK(peak_bf16_sve_bfmmla, float, 0, RIDGELINE_SVE_BF16("bfmmla"))

}  // namespace ridgeline::ceilings
