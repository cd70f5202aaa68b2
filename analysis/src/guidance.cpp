// The guidance line of a placement: where the point is and what would move it, from the
// bound, the level and the efficiency placement found.
#include <fmt/format.h>

#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

std::string placement_guidance(const RooflinePlacement& p) {
  if (!p.placeable) return "not on the roofline: " + p.reason;
  if (p.attainable <= 0)
    return "no ceilings for this case: a machine model (ridgeline probe; --machine, or the "
           "dashboard's File → Use ceilings from…) places it";
  const std::string at = fmt::format("{:.0f}%", 100 * p.efficiency);
  if (p.above_roof)
    return fmt::format(
        "above the roof ({} of it): the work model (FLOPs, bytes) or the ceilings "
        "(threads, level) do not hold for this case",
        at);
  if (p.bound.is_compute())
    return p.efficiency < 0.5
               ? fmt::format(
                     "compute-bound at {} of the {} peak: far from it; vectorise, block "
                     "for the caches or use more threads",
                     at, p.dtype)
               : fmt::format(
                     "compute-bound at {} of the {} peak: only a cheaper algorithm or "
                     "lower precision moves it much further",
                     at, p.dtype);
  if (p.bound.kind == Bound::Kind::call_overhead)
    return fmt::format("bound by call overhead at {}: give each call more work", at);
  if (p.bound.level.rfind("network", 0) == 0)  // network_level(scope): a collective case
    return p.efficiency < 0.5
               ? fmt::format(
                     "network-bound ({}) at {} of the point-to-point roof: the collective "
                     "does not reach the link's bandwidth (message size, its algorithm, ranks "
                     "busy-polling for the CPUs); overlap it with computation or send less",
                     p.bound.level, at)
               : fmt::format(
                     "network-bound ({}) at {} of the point-to-point roof: only sending "
                     "fewer bytes (more work per byte sent) moves it further",
                     p.bound.level, at);
  return p.efficiency < 0.5
             ? fmt::format(
                   "memory-bound at {} at {} of the roof: the accesses do not reach the "
                   "level's bandwidth (strides, prefetching, threads); raise intensity "
                   "by fusion or reuse",
                   p.bound.level, at)
             : fmt::format(
                   "memory-bound at {} at {} of the roof: raise intensity by fusion or "
                   "reuse",
                   p.bound.level, at);
}

}  // namespace ridgeline
