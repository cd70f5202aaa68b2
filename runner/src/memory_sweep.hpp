#pragma once
// The probe's bandwidth-against-working-set sweeps, and the memory levels found in them
// (analysis/memory_hierarchy): the hierarchy by measurement, anchored on what hwloc reports.
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
  int trials = 1;         // the best is kept; the passes are the repetitions that count
  int passes = 3;         // each kernel's sweep is measured this many times, interleaved
};

// The first pass of `kernel`'s sweep: rates at working sets from first_bytes_per_thread x
// threads upward, points_per_octave a factor of two, until the DRAM plateau is reached (the
// last plateau of find_plateaus holds the last dram_points points, past dram_from_bytes) or
// max_bytes. `point` is told each point as it is measured. `arrays` gives the thread count;
// reserving max_bytes / threads per thread up front avoids re-faulting as they grow.
MemorySweep sweep_memory(
    StreamKernel kernel, StreamArrays& arrays, StreamIsa isa, const MemorySweepOptions& options,
    const std::function<void(std::int64_t bytes, double bytes_per_s)>& point = {});

// Another pass of `sweep` (of `kernel` at `isa`, as sweep_memory made it) over its working
// sets, added to its passes; bytes_per_s becomes the median of the passes at each point.
void repeat_sweep(MemorySweep& sweep, StreamKernel kernel, StreamIsa isa, StreamArrays& arrays,
                  const MemorySweepOptions& options,
                  const std::function<void(std::int64_t bytes, double bytes_per_s)>& point = {});

// The levels of one thread count's sweeps (the read sweep first places them; every sweep
// shows its span of each) beside the OS's sizes (L1 and L2 are per core, so x threads; the
// L3 is shared), with what was kept of each size and why. Each sweep's noise is set.
std::vector<MeasuredLevel> levels_of(std::vector<MemorySweep*> sweeps, const CacheSizes& reported);

}  // namespace ridgeline
