// Peak chains for base SVE (HWCAP_SVE), at this process's vector length (VL bits; peak.cpp
// counts the operations from the same length): predicated FMLA on whole vectors in f64, f32
// and f16 (VL/64, VL/32, VL/16 lanes; SVE's FMLA .h needs no FEAT_FP16), acc += z30 x z31
// with small products, as in peak_neon.cpp; and SDOT .s, .b: VL/32 lanes, each adding four
// int8 products. Built with +sve; called only where HWCAP has it. The chains' text is
// peak_sve_chains.hpp's.
#include "peak_sve_chains.hpp"

namespace ridgeline::ceilings {

// The FMLA chains at element size S ("d", "s", "h"): accumulators from 1.0, operands m and a.
#define RIDGELINE_SVE_FMLA(S, SETUP_OPERANDS, FIRST)                                     \
  RIDGELINE_SVE_CHAINS("ptrue p0." S "\n\t" SETUP_OPERANDS, "fmov z\\r\\()." S ", #1.0", \
                       "fmla z\\r\\()." S ", p0/m, z30." S ", z31." S, FIRST)

RIDGELINE_SVE_PEAK(peak_f64_sve_fma, double, 1e-3,
                   RIDGELINE_SVE_FMLA("d", "mov z30.d, %d[m]\n\tmov z31.d, %d[a]",
                                      "fmov %d[first], d0"))
RIDGELINE_SVE_PEAK(peak_f32_sve_fma, float, 1e-3f,
                   RIDGELINE_SVE_FMLA("s", "mov z30.s, %s[m]\n\tmov z31.s, %s[a]",
                                      "fmov %s[first], s0"))

// fp16 operands of 1/8 (products of 2^-6, normal): the sums stop growing where 2^-6 is below
// half an ulp (near 2^5), far from fp16's range.
RIDGELINE_SVE_PEAK(peak_f16_sve_fma, float, 0,
                   RIDGELINE_SVE_FMLA("h", "fmov z30.h, #0.125\n\tfmov z31.h, #0.125",
                                      "fcvt %s[first], h0"))

// int8 operands of 1: each lane grows by 4 an instruction, wrapping in i32 after 2^29
// iterations, which no run reaches and which would not slow it.
RIDGELINE_SVE_PEAK(peak_i8_sve_sdot, float, 0,
                   RIDGELINE_SVE_CHAINS("mov z30.b, #1\n\tmov z31.b, #1", "mov z\\r\\().s, #1",
                                        "sdot z\\r\\().s, z30.b, z31.b", "fmov %s[first], s0"))

}  // namespace ridgeline::ceilings
