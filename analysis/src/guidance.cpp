// The guidance line of a placement: where the point is and what would move it, from the
// bound, the level and the efficiency placement found.
#include <fmt/format.h>

#include "ridgeline/analysis/roofline.hpp"

namespace ridgeline {

namespace {

std::string rate_text(double per_second, const std::string& unit) {
  return per_second >= 1e12 ? fmt::format("{:.2f} T{}", per_second / 1e12, unit)
                            : fmt::format("{:.0f} G{}", per_second / 1e9, unit);
}

// "; this CPU's matrix engine reaches 2.20 TFLOP/s bf16 (bf16.amx, measured), 19x this
// unit's peak; vendor.onednn ran at 1377 GFLOP/s on it here", where another unit is faster.
std::string faster_unit_text(const RooflinePlacement& p, double own_peak) {
  if (!p.faster_unit) return "";
  const ComputeCeiling& f = *p.faster_unit;
  std::string text = fmt::format("; this {}'s {} reaches {} {} ({}, {}), {:.1f}x this unit's peak",
                                 display_name(p.device), display_name(f.compute_unit),
                                 rate_text(f.per_second, f.unit), p.dtype, f.name,
                                 to_string(f.source), f.per_second / own_peak);
  if (p.faster_case_rate > 0)
    text += fmt::format("; {} ran at {} on it here", p.faster_case_backend,
                        rate_text(p.faster_case_rate, f.unit));
  return text;
}

}  // namespace

std::string placement_guidance(const RooflinePlacement& p) {
  if (!p.placeable) return "not on the roofline: " + p.reason;
  if (p.attainable <= 0)
    return "no ceilings for this case: a machine model (ridgeline probe; --machine, or the "
           "dashboard's File → Use ceilings from…) places it";
  const std::string at = fmt::format("{:.0f}%", 100 * p.efficiency);
  // The unit's own compute peak: the attainable rate of a compute-bound point.
  const double own_peak = p.attainable;
  const std::string on =
      p.compute_unit ? fmt::format(" of the {}", display_name(*p.compute_unit)) : "";
  if (p.above_roof)
    return fmt::format(
               "above the roof{} ({} of it): the work model (FLOPs, bytes) or the ceilings "
               "(threads, level) do not hold for this case",
               on, at) +
           (p.faster_unit ? fmt::format(", or it ran on the {} (its roof: {})",
                                        display_name(p.faster_unit->compute_unit),
                                        rate_text(p.faster_unit->per_second, p.faster_unit->unit))
                          : "");
  if (p.bound.is_compute())
    return (p.efficiency < 0.5
                ? fmt::format(
                      "compute-bound at {} of the {} peak{}: far from it; {}", at, p.dtype, on,
                      p.compute_unit == ComputeUnit::matrix || p.compute_unit == ComputeUnit::tensor
                          ? "feed the engine: operands nearer (the panels in L1 or shared "
                            "memory), each loaded tile in more products, more threads"
                          : "vectorise, block for the caches or use more threads")
            : p.faster_unit
                ? fmt::format("compute-bound at {} of the {} peak{}", at, p.dtype, on)
                : fmt::format("compute-bound at {} of the {} peak{}: only a cheaper algorithm or "
                              "lower precision moves it much further",
                              at, p.dtype, on)) +
           faster_unit_text(p, own_peak);
  if (p.bound.kind == Bound::Kind::call_overhead)
    return fmt::format("bound by call overhead at {}: give each call more work", at);
  if (p.bound.level.type == MemoryLevel::network)  // a collective case
    return p.efficiency < 0.5
               ? fmt::format(
                     "network-bound ({}) at {} of the point-to-point roof: the collective "
                     "does not reach the link's bandwidth (message size, its algorithm, ranks "
                     "busy-polling for the CPUs); overlap it with computation or send less",
                     p.bound.level.name, at)
               : fmt::format(
                     "network-bound ({}) at {} of the point-to-point roof: only sending "
                     "fewer bytes (more work per byte sent) moves it further",
                     p.bound.level.name, at);
  return p.efficiency < 0.5
             ? fmt::format(
                   "memory-bound at {} at {} of the roof: the accesses do not reach the "
                   "level's bandwidth (strides, prefetching, threads); raise intensity "
                   "by fusion or reuse",
                   p.bound.level.name, at)
             : fmt::format(
                   "memory-bound at {} at {} of the roof: raise intensity by fusion or "
                   "reuse",
                   p.bound.level.name, at);
}

}  // namespace ridgeline
