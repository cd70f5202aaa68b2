#pragma once
#include <cstdint>
#include <string>

namespace ridgeline {

// Per-core data cache sizes as hwloc reports them for the core this process runs on.
struct CacheSizes {
  std::int64_t l1d = 32 * 1024;
  std::int64_t l2 = 512 * 1024;
  std::int64_t l3 = 8 * 1024 * 1024;
  int l3_sharing = 1;  // cores sharing one L3
  std::string source;  // "hwloc" or why the defaults above were used
};

const CacheSizes& cache_sizes();

}  // namespace ridgeline
