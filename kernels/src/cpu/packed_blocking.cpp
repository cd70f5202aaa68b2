#include "packed_blocking.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace ridgeline::packed {

namespace {
// RIDGELINE_PACKED_{MC,KC,NC} override a derived size, for tuning experiments.
std::int64_t override_or(const char* name, std::int64_t derived) {
  const char* v = std::getenv(name);
  if (!v) return derived;
  long long x = std::atoll(v);
  return x > 0 ? x : derived;
}
std::int64_t round_down(std::int64_t x, std::int64_t multiple) {
  return std::max(multiple, x / multiple * multiple);
}
Blocking overridden(Blocking b, int mr, int nr) {
  b.kc = override_or("RIDGELINE_PACKED_KC", b.kc);
  b.mc = round_down(override_or("RIDGELINE_PACKED_MC", b.mc), mr);
  b.nc = round_down(override_or("RIDGELINE_PACKED_NC", b.nc), nr);
  return b;
}
}  // namespace

std::string Blocking::describe() const {
  return fmt::format("mc={},kc={},nc={}", mc, kc, nc);
}

Blocking derive_blocking(const CacheSizes& caches, int mr, int nr, std::size_t element_size) {
  const auto s = static_cast<std::int64_t>(element_size);
  Blocking b;
  // kc is long on purpose: each micro-kernel call loads and stores its MR x NR tile of C
  // once per kc steps, and on current cores L2 feeds the B micro-panel fast enough, so a
  // kc x NR panel taking up to a quarter of L2 beat one that fits L1
  // (docs/ladder-performance.md; f64 8 x 24 on Zen 5, 2 threads: kc 1024 against 680, 2-4%).
  b.kc = std::clamp<std::int64_t>(round_down(caches.l2 / 4 / (nr * s), 8), 128, 1024);
  // The mc x kc block of A: a quarter of this core's share of L3, or all of L2 where that is
  // more. Each kc x NR micro-panel of B then serves mc / MR micro-kernel calls from L2 while
  // A's panels stream from L3; on the Zen 5 VM (f64, n = 4096, 1 thread) an A block of 1 MiB
  // (all of L2) ran at 99-103 GFLOP/s, 4-8 MiB at 115-116 and 16 MiB at 59.
  const std::int64_t l3_share = caches.l3 / std::max(1, caches.l3_sharing);
  b.mc = round_down(std::max(caches.l2, l3_share / 4) / (b.kc * s), mr);
  // The kc x nc block of B streams through L3 once per A block: as large as all of L3.
  b.nc = std::clamp<std::int64_t>(round_down(caches.l3 / (b.kc * s), nr), nr, 16384 / nr * nr);
  return overridden(b, mr, nr);
}

Blocking derive_tile_blocking(const CacheSizes& caches, int mr, int nr, std::size_t element_size,
                              int k_block) {
  const auto s = static_cast<std::int64_t>(element_size);
  Blocking b;
  b.kc = std::clamp<std::int64_t>(round_down(caches.l1d * 2 / 3 / (nr * s), k_block), k_block,
                                  4096 / s);
  b.mc = round_down(caches.l2 / 2 / (b.kc * s), mr);
  b.nc = std::clamp<std::int64_t>(round_down(caches.l3 / (b.kc * s), nr), nr, 16384 / nr * nr);
  return overridden(b, mr, nr);
}

}  // namespace ridgeline::packed
