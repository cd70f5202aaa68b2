#pragma once
// The bandwidth loops, written once and instantiated per instruction width by the
// translation unit that includes this file (anonymous namespace: each gets its own copy,
// compiled with that unit's flags). n is a multiple of 64.
//
// Each function repeats its sweep itself: a call per sweep (and, for read, a horizontal sum
// per sweep) costs about a tenth of an L1-sized sweep. Each sweep walks blocks of 64
// elements, which the compiler unrolls completely, so the loop's own add, compare and branch
// are spread over 8 vectors (AVX-512) rather than paid per vector.
#include <cstdint>

#include "stream_sweeps.hpp"

namespace ridgeline::ceilings {
namespace {

constexpr int kBlock = 64;

// PartialSums independent sums so the adds' latency does not bound the loads. Beyond L1, four
// 512-bit vectors: eight issued loads so far ahead that L2 and DRAM reads halved on Zen 5 (the
// hardware prefetcher falls behind). Within L1 (read_in_l1), eight: two loads a cycle need
// latency x 2 adds in flight, and four reach it only where an add takes two cycles (Zen 5); on
// a 4-cycle add (Golden Cove and later Intel cores) four read 0.76x likwid-bench's load_avx512
// at 17 KiB. AVX2 takes eight 256-bit vectors (the same 256 bytes ahead;
// stream_sweeps_avx2.cpp), and 16 scalars are already two a cycle.
template <int PartialSums>
double sweep_read(const double* a, std::int64_t n, std::int64_t repeats) {
  static_assert(kBlock % PartialSums == 0);
  double s[PartialSums] = {};
  for (std::int64_t r = 0; r < repeats; ++r) {
    for (std::int64_t i = 0; i < n; i += PartialSums)
#pragma GCC unroll 64
      for (int j = 0; j < PartialSums; ++j) s[j] += a[i + j];
    // No compiler barrier here: each repeat's adds depend on the last (no -ffast-math, so they
    // are not reassociated away), and a memory clobber would send the sums through the stack
    // on every repeat, a quarter of an L1-sized sweep's time.
  }
  double sum = 0;
  for (double x : s) sum += x;
  return sum;
}

void sweep_write(double* a, std::int64_t n, double v, std::int64_t repeats) {
  for (std::int64_t r = 0; r < repeats; ++r) {
    for (std::int64_t i = 0; i < n; i += kBlock)
#pragma GCC unroll 64
      for (int j = 0; j < kBlock; ++j) a[i + j] = v;
    asm volatile("" ::: "memory");  // every repeat's stores happen
  }
}

void sweep_copy(double* __restrict a, const double* __restrict b, std::int64_t n,
                std::int64_t repeats) {
  for (std::int64_t r = 0; r < repeats; ++r) {
    for (std::int64_t i = 0; i < n; i += kBlock)
#pragma GCC unroll 64
      for (int j = 0; j < kBlock; ++j) a[i + j] = b[i + j];
    asm volatile("" ::: "memory");
  }
}

// likwid-bench's triad: A = B * C + D (four streams).
void sweep_triad(double* __restrict a, const double* __restrict b, const double* __restrict c,
                 const double* __restrict d, std::int64_t n, std::int64_t repeats) {
  for (std::int64_t r = 0; r < repeats; ++r) {
    for (std::int64_t i = 0; i < n; i += kBlock)
#pragma GCC unroll 64
      for (int j = 0; j < kBlock; ++j) a[i + j] = b[i + j] * c[i + j] + d[i + j];
    asm volatile("" ::: "memory");
  }
}

template <int ReadPartialSums, int ReadInL1PartialSums = ReadPartialSums>
constexpr StreamSweeps kSweeps{sweep_read<ReadPartialSums>, sweep_read<ReadInL1PartialSums>,
                               sweep_write, sweep_copy, sweep_triad};

}  // namespace
}  // namespace ridgeline::ceilings
