#pragma once
// The bandwidth loops, written once and instantiated per instruction width by the
// translation unit that includes this file (anonymous namespace: each gets its own copy,
// compiled with that unit's flags). n is a multiple of 64.
#include <cstdint>

#include "stream_sweeps.hpp"

namespace ridgeline::ceilings {
namespace {

// Sixteen partial sums so the adds' latency does not bound the loads.
double sweep_read(const double* a, std::int64_t n) {
  double s[16] = {};
  for (std::int64_t i = 0; i < n; i += 16)
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) s[j] += a[i + j];
  double sum = 0;
  for (double x : s) sum += x;
  return sum;
}

void sweep_write(double* a, std::int64_t n, double v) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = v;
}

void sweep_copy(double* __restrict a, const double* __restrict b, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i];
}

// likwid-bench's triad: A = B * C + D (four streams).
void sweep_triad(double* __restrict a, const double* __restrict b, const double* __restrict c,
                 const double* __restrict d, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] * c[i] + d[i];
}

constexpr StreamSweeps kSweeps{sweep_read, sweep_write, sweep_copy, sweep_triad};

}  // namespace
}  // namespace ridgeline::ceilings
