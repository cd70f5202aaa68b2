// Peak chains for SVE (HWCAP_SVE): predicated FMLA on whole vectors, at this process's vector
// length (VL bits: VL/64 f64 lanes, VL/32 f32 lanes; peak.cpp counts the FLOPs from the same
// length). Built with +sve; called only where HWCAP has it. Written in assembly: SVE's vector
// types are sizeless, so the chains cannot be an array as in peak_body.hpp; z0-z19 accumulate
// (acc += z30 x z31, small products, as in peak_neon.cpp).
#include "peak_kernels.hpp"

namespace ridgeline::ceilings {

static_assert(kArmChains == 20, "the .irp lists below name z0-z19");

// The chains' text at element size S ("d": f64, "s": f32), the same instructions at either.
// clang-format off
#define RIDGELINE_SVE_FMLA_CHAINS(S)                                   \
  "ptrue p0." S "\n\t"                                                 \
  "mov z30." S ", %" S "[m]\n\t"                                       \
  "mov z31." S ", %" S "[a]\n\t"                                       \
  ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\n\t"       \
  "fmov z\\r\\()." S ", #1.0\n\t"                                      \
  ".endr\n"                                                            \
  "1:\n\t"                                                             \
  ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\n\t"       \
  "fmla z\\r\\()." S ", p0/m, z30." S ", z31." S "\n\t"                \
  ".endr\n\t"                                                          \
  "subs %[n], %[n], #1\n\t"                                            \
  "b.ne 1b\n\t"                                                        \
  "fmov %" S "[first], " S "0"
// clang-format on
#define RIDGELINE_SVE_CHAIN_OPERANDS                                                             \
  : [n] "+r"(iterations), [first] "=w"(first)                                                 \
  : [m] "w"(m), [a] "w"(a)                                                                    \
  : "cc", "p0", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", \
    "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v30", "v31"

namespace {

template <typename F>
double fma_chains(std::int64_t iterations) {
  if (iterations <= 0) return 0;
  const F m = F(1e-3), a = F(1e-3);
  F first = 0;
  if constexpr (sizeof(F) == 8)
    asm volatile(RIDGELINE_SVE_FMLA_CHAINS("d") RIDGELINE_SVE_CHAIN_OPERANDS);
  else
    asm volatile(RIDGELINE_SVE_FMLA_CHAINS("s") RIDGELINE_SVE_CHAIN_OPERANDS);
  return first;
}

}  // namespace

double peak_f64_sve_fma(std::int64_t iterations) {
  return fma_chains<double>(iterations);
}
double peak_f32_sve_fma(std::int64_t iterations) {
  return fma_chains<float>(iterations);
}

}  // namespace ridgeline::ceilings
