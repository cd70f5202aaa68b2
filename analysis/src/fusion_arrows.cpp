// The fusion arrows of the roofline scene: from each unfused point to its fused twin's,
// in pixels, so that every backend draws the same arrow.
#include "fusion_arrows.hpp"

#include <fmt/format.h>

#include <cmath>

#include "fusion_cases.hpp"

namespace ridgeline::detail {

namespace {

constexpr double kHeadLength = 9, kHeadHalfWidth = 4;

const ScenePoint* find_point(const RooflineScene& scene,
                             const std::vector<RooflinePlacement>& placements, std::size_t index) {
  if (index >= placements.size()) return nullptr;
  const std::string level = comparison_level(placements[index]);
  for (const auto& pt : scene.points)
    if (pt.placement == index && pt.level == level) return &pt;
  return nullptr;
}

}  // namespace

void add_fusion_arrows(RooflineScene& scene, const std::vector<RooflinePlacement>& placements,
                       const std::vector<FusionPair>& pairs) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const FusionPair& pair = pairs[i];
    const std::string what = fmt::format("fusion arrow {} {} {} {} thread{}", pair.op, pair.params,
                                         pair.dtype, pair.threads, pair.threads == 1 ? "" : "s");
    const ScenePoint* from = find_point(scene, placements, pair.unfused.placement);
    const ScenePoint* to = find_point(scene, placements, pair.fused.placement);
    if (!from || !to) {
      std::vector<std::string> why;
      for (const auto& [point, side] : {std::pair{from, &pair.unfused}, std::pair{to, &pair.fused}})
        if (!point)
          why.push_back(fmt::format(
              "the {} case {}", side == &pair.fused ? "fused" : "unfused",
              side->placement < placements.size() && placements[side->placement].placeable
                  ? "is outside the plotted range"
                  : "is not placeable"));
      scene.omitted.push_back({what, fmt::format("{}", fmt::join(why, "; ")), false});
      continue;
    }
    const double dx = to->x - from->x, dy = to->y - from->y;
    const double length = std::hypot(dx, dy);
    if (!(length > 2 * kMarkerClearance + kHeadLength)) {
      scene.omitted.push_back(
          {what,
           fmt::format("the unfused and fused points are {:.0f} px apart: no room for an arrow",
                       length),
           false});
      continue;
    }
    const double ux = dx / length, uy = dy / length;  // along the arrow
    const double nx = -uy, ny = ux;                   // across it
    SceneArrow a;
    a.pair = i;
    a.from = {from->x + ux * kMarkerClearance, from->y + uy * kMarkerClearance};
    const SceneXY tip{to->x - ux * kMarkerClearance, to->y - uy * kMarkerClearance};
    a.to = {tip.x - ux * kHeadLength, tip.y - uy * kHeadLength};
    a.head = {tip, SceneXY{a.to.x + nx * kHeadHalfWidth, a.to.y + ny * kHeadHalfWidth},
              SceneXY{a.to.x - nx * kHeadHalfWidth, a.to.y - ny * kHeadHalfWidth}};
    scene.arrows.push_back(a);
  }
}

}  // namespace ridgeline::detail
