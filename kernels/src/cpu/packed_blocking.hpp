#pragma once
#include <cstdint>
#include <string>

#include "ridgeline/kernels/cache_sizes.hpp"

namespace ridgeline::packed {

// Goto/BLIS cache blocking from the cache sizes the kernels are given (cache_sizes(): hwloc's,
// or the probe's measured ones where its sweeps replaced hwloc's): a kc x NR micro-panel of B
// takes up to a quarter of L2, an mc x kc block of A a quarter of this core's share of L3 (all of
// L2 where that is more), a kc x nc block of B all of L3. On the machines measured
// (docs/ladder-performance.md) the next cache level feeds the micro-kernel fast enough that
// large blocks, which reuse each packed panel longer, beat the classic "half of a level".
struct Blocking {
  std::int64_t mc = 0;
  std::int64_t kc = 0;
  std::int64_t nc = 0;
  std::string describe() const;
};

Blocking derive_blocking(const CacheSizes& caches, int mr, int nr, std::size_t element_size);

// A matrix engine's blocking (the AMX micro-kernel, amx_microkernel.hpp): each of its products
// reloads two A and two B tiles per k tile, so both panels are kept near it: the kc x NR B
// panel in two thirds of L1 and the mc x kc A block in half of L2; kc a multiple of k_block.
// On the Emerald Rapids VM (bf16 n = 2048, 1 thread, beside oneDNN in one interleaved run)
// kc = 512 ran at 1.05-1.15x oneDNN's matmul and the vector rung's kc = 1024 at 0.95-1.0x.
Blocking derive_tile_blocking(const CacheSizes& caches, int mr, int nr, std::size_t element_size,
                              int k_block);

}  // namespace ridgeline::packed
