#pragma once
#include <cstdint>
#include <string>

#include "ridgeline/kernels/cache_sizes.hpp"

namespace ridgeline::packed {

// Goto/BLIS cache blocking: a kc x NR micro-panel of B fills half of L1, an mc x kc block
// of A half of L2, a kc x nc block of B half of this core's share of L3.
struct Blocking {
  std::int64_t mc = 0;
  std::int64_t kc = 0;
  std::int64_t nc = 0;
  std::string describe() const;
};

Blocking derive_blocking(const CacheSizes& caches, int mr, int nr, std::size_t element_size);

}  // namespace ridgeline::packed
