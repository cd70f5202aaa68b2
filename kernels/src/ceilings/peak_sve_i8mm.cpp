// Peak chains for SVE's int8 matrix multiply (HWCAP2_SVEI8MM), at this process's vector
// length: SMMLA .s, .b, .b, per 128-bit segment a 2 x 8 int8 matrix times an 8 x 2 one added
// to a 2 x 2 i32 one (64 OPs a segment, VL/2 an instruction). Built with +sve+i8mm; called
// only where HWCAP2 has it. The chains' text is peak_sve_chains.hpp's.
#include "peak_sve_chains.hpp"

namespace ridgeline::ceilings {

// int8 operands of 1: each lane grows by 8 an instruction, wrapping in i32 after 2^28
// iterations, which no run reaches and which would not slow it.
RIDGELINE_SVE_PEAK(peak_i8_sve_smmla, float, 0,
                   RIDGELINE_SVE_CHAINS("mov z30.b, #1\n\tmov z31.b, #1", "mov z\\r\\().s, #1",
                                        "smmla z\\r\\().s, z30.b, z31.b", "fmov %s[first], s0"))

}  // namespace ridgeline::ceilings
