#pragma once
// N independent chains of one instruction, written once and instantiated per ISA in the
// ISA's own translation unit (anonymous namespace: each gets its own copy). Distinct
// seeds keep the compiler from merging chains that would otherwise be identical.
#include <cstdint>

namespace ridgeline::ceilings {
namespace {

template <int N, typename V, typename Seed, typename Step, typename Sum>
double run_chains(std::int64_t iterations, Seed seed, Step step, Sum sum) {
  V acc[N];
#pragma GCC unroll 32
  for (int i = 0; i < N; ++i) acc[i] = seed(i);
  for (std::int64_t it = 0; it < iterations; ++it) {
#pragma GCC unroll 32
    for (int i = 0; i < N; ++i) acc[i] = step(acc[i]);
  }
  double total = 0;
  // Unrolled too: a loop here kept the accumulators in memory on AArch64 (GCC 12 stored them
  // all to the stack every iteration of the chains, 10 STP q per 20 FMLA).
#pragma GCC unroll 32
  for (int i = 0; i < N; ++i) total += sum(acc[i]);
  return total;
}

}  // namespace
}  // namespace ridgeline::ceilings
