#pragma once
#include <cstdint>
#include <string>

#include "ridgeline/kernels/cache_sizes.hpp"

namespace ridgeline::packed {

// Goto/BLIS cache blocking from the measured cache sizes: a kc x NR micro-panel of B takes
// an eighth of L2, an mc x kc block of A fills L2, a kc x nc block of B fills this core's
// share of L3. The reuse of each packed panel grows with its partner block, and on the
// machines measured (docs/ladder-performance.md) the next cache level feeds the
// micro-kernel fast enough that filling a level beat the classic "half of it".
struct Blocking {
  std::int64_t mc = 0;
  std::int64_t kc = 0;
  std::int64_t nc = 0;
  std::string describe() const;
};

Blocking derive_blocking(const CacheSizes& caches, int mr, int nr, std::size_t element_size);

}  // namespace ridgeline::packed
