#include "ridgeline/analysis/power_cap.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

std::vector<PowerCapRoof> power_cap_roofs(const std::vector<PatternEffect>& effects) {
  std::vector<PowerCapRoof> roofs;
  for (const PatternEffect& e : effects) {
    if (e.device != Device::gpu) continue;
    for (const PatternPoint& p : e.points) {
      if (!p.power_capped || !usable(p.flop_rate)) continue;
      PowerCapRoof roof{e.dtype, p.pattern, p.flop_rate, p.power_w, p.flop_per_joule, e.case_name};
      auto same = [&](const PowerCapRoof& r) {
        return r.dtype == roof.dtype && r.pattern == roof.pattern;
      };
      auto it = std::find_if(roofs.begin(), roofs.end(), same);
      if (it == roofs.end())
        roofs.push_back(std::move(roof));
      else if (roof.flop_rate > it->flop_rate)
        *it = std::move(roof);
    }
  }
  return roofs;
}

void note_power_caps(std::vector<RooflinePlacement>& placements,
                     const std::vector<PowerCapRoof>& roofs) {
  for (RooflinePlacement& p : placements) {
    if (!p.placeable || p.device != Device::gpu || p.bound != Bound::compute()) continue;
    for (const PowerCapRoof& r : roofs) {
      // Below the compute roof only: a cap the GEMM never reached says nothing of the roof.
      if (r.dtype != p.dtype || r.pattern != p.pattern || !(r.flop_rate < p.attainable)) continue;
      p.notes.push_back(
          {NoteKind::power_cap,
           fmt::format("at the power cap on {} inputs the GPU sustains {:.4g} TFLOP/s in {} "
                       "({:.0f}% of the compute roof; measured by {}): this case reached {:.0f}% "
                       "of it",
                       r.pattern, r.flop_rate / 1e12, r.dtype, 100 * r.flop_rate / p.attainable,
                       r.case_name, 100 * p.achieved / r.flop_rate)});
    }
  }
}

}  // namespace ridgeline
