#pragma once
// One sweep of each bandwidth kernel, compiled once per instruction width in its own
// translation unit (stream_sweeps_<isa>.cpp). A table per width lets the probe time every
// width over the same arrays.
#include <cstdint>

#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline::ceilings {

// Each runs `repeats` sweeps over n elements per array.
struct StreamSweeps {
  double (*read)(const double* a, std::int64_t n,
                 std::int64_t repeats);  // returns the sum so it is not elided
  // The read for a working set within the L1 data cache (the same arguments and result).
  double (*read_in_l1)(const double* a, std::int64_t n, std::int64_t repeats);
  void (*write)(double* a, std::int64_t n, double v, std::int64_t repeats);
  void (*copy)(double* __restrict a, const double* __restrict b, std::int64_t n,
               std::int64_t repeats);
  void (*triad)(double* __restrict a, const double* __restrict b, const double* __restrict c,
                const double* __restrict d, std::int64_t n, std::int64_t repeats);
};

extern const StreamSweeps stream_sweeps_scalar;  // no vectorisation at all
#if defined(__x86_64__)
extern const StreamSweeps stream_sweeps_avx2;    // 256-bit vectors (the baseline x86-64-v3)
extern const StreamSweeps stream_sweeps_avx512;  // 512-bit vectors; only on AVX-512 CPUs
#elif defined(__aarch64__)
extern const StreamSweeps stream_sweeps_neon;  // 128-bit Advanced SIMD (the baseline Armv8-A)
extern const StreamSweeps stream_sweeps_sve;   // SVE at this process's vector length; only
                                               // where HWCAP has SVE
#endif

// The loops of `isa`; std::invalid_argument for the other architecture's widths, which are
// not built (stream_isas() never lists them).
const StreamSweeps& sweeps_for(StreamIsa isa);

}  // namespace ridgeline::ceilings
