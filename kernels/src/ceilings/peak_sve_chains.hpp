#pragma once
// The text of the SVE peak chains (peak_sve.cpp, peak_sve_bf16.cpp, peak_sve_i8mm.cpp): SVE's
// vector types are sizeless, so the chains cannot be an array as in peak_body.hpp and are
// written in assembly. z0-z19 are the kArmChains accumulators, z30 and z31 the two operands,
// p0 the all-true predicate. SETUP runs once (p0 and the operands), INIT once per
// accumulator, OP once per accumulator and iteration; z\r names the accumulator in both.
// FIRST moves z0's first lane into %[first] as a finite number (its type's, or the bits of a
// small integer as a float), the checksum that keeps the result in use.
#include "peak_kernels.hpp"

static_assert(ridgeline::ceilings::kArmChains == 20, "the .irp lists below name z0-z19");

// clang-format off
#define RIDGELINE_SVE_CHAINS(SETUP, INIT, OP, FIRST)                   \
  SETUP "\n\t"                                                         \
  ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\n\t"       \
  INIT "\n\t"                                                          \
  ".endr\n"                                                            \
  "1:\n\t"                                                             \
  ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\n\t"       \
  OP "\n\t"                                                            \
  ".endr\n\t"                                                          \
  "subs %[n], %[n], #1\n\t"                                            \
  "b.ne 1b\n\t"                                                        \
  FIRST
// clang-format on

// The operands of every chain: the iteration count (counted down), the checksum,
// and two inputs SETUP may read (%[m], %[a]) or leave. Everything the text writes is clobbered.
#define RIDGELINE_SVE_CHAIN_OPERANDS                                                             \
  : [n] "+r"(iterations), [first] "=w"(first)                                                 \
  : [m] "w"(m), [a] "w"(a)                                                                    \
  : "cc", "p0", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", \
    "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v30", "v31"

// A chain function: `double NAME(std::int64_t iterations)` running TEXT (RIDGELINE_SVE_CHAINS)
// with inputs m = a = M of type T, returning the checksum, of type T.
#define RIDGELINE_SVE_PEAK(NAME, T, M, TEXT)         \
  double NAME(std::int64_t iterations) {             \
    if (iterations <= 0) return 0;                   \
    const T m = M, a = M;                            \
    T first = 0;                                     \
    asm volatile(TEXT RIDGELINE_SVE_CHAIN_OPERANDS); \
    return first;                                    \
  }
