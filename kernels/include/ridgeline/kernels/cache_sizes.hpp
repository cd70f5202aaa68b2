#pragma once
#include <cstdint>
#include <string>

namespace ridgeline {

// Per-core data cache sizes as hwloc reports them for the core this process runs on, or as
// the probe measured them where hwloc is wrong (use_cache_sizes).
struct CacheSizes {
  std::int64_t l1d = 32 * 1024;
  std::int64_t l2 = 512 * 1024;
  std::int64_t l3 = 8 * 1024 * 1024;
  int l3_sharing = 1;  // cores sharing one L3
  std::string source;  // "hwloc", which levels were measured instead, or why the defaults
                       // above were used
};

// What hwloc reports (the probe compares its measured levels with these).
const CacheSizes& hwloc_cache_sizes();
// What the kernels block for: hwloc's sizes, until use_cache_sizes replaces them.
const CacheSizes& cache_sizes();
// The sizes cache_sizes() returns from now on (the runner passes the probe's measured ones
// where they disagree with hwloc's); call before kernels are prepared, from one thread.
void use_cache_sizes(const CacheSizes& sizes);

}  // namespace ridgeline
