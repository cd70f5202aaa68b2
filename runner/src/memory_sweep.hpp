#pragma once
// The probe's bandwidth-against-working-set sweeps, and the memory levels found in them
// (analysis/memory_levels): the hierarchy by measurement, beside what hwloc reports.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline {

struct MemorySweepOptions {
  int points_per_octave = 3;
  std::int64_t first_bytes_per_thread = 4096;
  // All arrays of all threads together: bounds what a sweep holds resident.
  std::int64_t max_bytes = std::int64_t{512} << 20;
  // DRAM is not declared below this working set: no core's caches reach so far (the
  // largest L3 a core sees today is 96 MiB). A constant, never a size the OS reported.
  std::int64_t dram_from_bytes = std::int64_t{256} << 20;
  int dram_points = 5;    // the last plateau must hold this many points (1.5 octaves)
  double seconds = 0.01;  // per trial of each point
  int trials = 2;         // the best is kept
};

// Rates of `kernel` at working sets from first_bytes_per_thread x threads upward,
// points_per_octave a factor of two, until the DRAM plateau is reached (the last plateau of
// find_plateaus holds the last dram_points points, past dram_from_bytes) or max_bytes.
// `point` is told each point as it is measured. `arrays` gives the thread count; they grow
// as the working set does, so reserving max_bytes / threads up front avoids re-faulting.
MemorySweep sweep_memory(
    StreamKernel kernel, StreamArrays& arrays, StreamIsa isa, const MemorySweepOptions& options,
    const std::function<void(std::int64_t bytes, double bytes_per_s)>& point = {});

// The named levels of a sweep with the OS's size of each beside its measured capacity
// (L1 and L2 are per core, so x threads; the L3 is shared), and whether they disagree by
// more than 2x.
std::vector<MeasuredLevel> levels_of(const MemorySweep& sweep, const CacheSizes& reported);

}  // namespace ridgeline
