// The arrows of the roofline scene, in pixels, so that every backend draws the same arrow:
// from each unfused point to its fused twin's, and from each compared case's base point to
// its new point.
#include "scene_arrows.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "fusion_cases.hpp"
#include "ridgeline/analysis/where_ran.hpp"

namespace ridgeline::detail {

namespace {

constexpr double kHeadLength = 9, kHeadHalfWidth = 4;

// The point of placement `index` at the level it is judged at.
const ScenePoint* find_point(const RooflineScene& scene,
                             const std::vector<RooflinePlacement>& placements, std::size_t index) {
  if (index >= placements.size()) return nullptr;
  const std::string level = comparison_level(placements[index]);
  for (const auto& pt : scene.points)
    if (pt.placement == index && pt.level == level) return &pt;
  return nullptr;
}

// Why placement `index` (`side`: "the fused case") has no point on the plot.
std::string missing(const std::vector<RooflinePlacement>& placements,
                    std::optional<std::size_t> index, const std::string& side) {
  if (!index) return side + " is not in the run";
  return fmt::format("{} {}", side,
                     *index < placements.size() && placements[*index].placeable
                         ? "is outside the plotted range"
                         : "is not placeable");
}

// The arrow from `from` to `to` (their markers' edges), or nullopt where they are too close.
std::optional<SceneArrow> arrow_between(const ScenePoint& from, const ScenePoint& to) {
  const double dx = to.x - from.x, dy = to.y - from.y;
  const double length = std::hypot(dx, dy);
  if (!(length > 2 * kMarkerClearance + kHeadLength)) return std::nullopt;
  const double ux = dx / length, uy = dy / length;  // along the arrow
  const double nx = -uy, ny = ux;                   // across it
  SceneArrow a;
  a.from = {from.x + ux * kMarkerClearance, from.y + uy * kMarkerClearance};
  const SceneXY tip{to.x - ux * kMarkerClearance, to.y - uy * kMarkerClearance};
  a.to = {tip.x - ux * kHeadLength, tip.y - uy * kHeadLength};
  a.head = {tip, SceneXY{a.to.x + nx * kHeadHalfWidth, a.to.y + ny * kHeadHalfWidth},
            SceneXY{a.to.x - nx * kHeadHalfWidth, a.to.y - ny * kHeadHalfWidth}};
  return a;
}

double distance(const ScenePoint& a, const ScenePoint& b) {
  return std::hypot(b.x - a.x, b.y - a.y);
}

}  // namespace

void add_fusion_arrows(RooflineScene& scene, const std::vector<RooflinePlacement>& placements,
                       const std::vector<FusionPair>& pairs) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const FusionPair& pair = pairs[i];
    const std::string what = fmt::format("fusion arrow {} {} {} {}", pair.op, pair.params,
                                         pair.dtype, where_ran(pair.device, pair.threads));
    const ScenePoint* from = find_point(scene, placements, pair.unfused.placement);
    const ScenePoint* to = find_point(scene, placements, pair.fused.placement);
    if (!from || !to) {
      std::vector<std::string> why;
      if (!from) why.push_back(missing(placements, pair.unfused.placement, "the unfused case"));
      if (!to) why.push_back(missing(placements, pair.fused.placement, "the fused case"));
      scene.omitted.push_back({what, fmt::format("{}", fmt::join(why, "; ")), false});
      continue;
    }
    std::optional<SceneArrow> a = arrow_between(*from, *to);
    if (!a) {
      scene.omitted.push_back(
          {what,
           fmt::format("the unfused and fused points are {:.0f} px apart: no room for an arrow",
                       distance(*from, *to)),
           false});
      continue;
    }
    a->kind = SceneArrow::Kind::fusion;
    a->pair = i;
    scene.arrows.push_back(*a);
  }
}

std::vector<std::size_t> add_comparison_arrows(RooflineScene& scene,
                                               const std::vector<RooflinePlacement>& placements,
                                               std::size_t base_count,
                                               const std::vector<CaseComparison>& cases) {
  const std::vector<CasePlacements> where = case_placements(placements, base_count, cases);
  std::vector<std::size_t> too_close;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CaseComparison& c = cases[i];
    const auto [b, h] = where[i];
    const ScenePoint* from = b ? find_point(scene, placements, *b) : nullptr;
    const ScenePoint* to = h ? find_point(scene, placements, *h) : nullptr;
    if (!from || !to) {
      std::vector<std::string> why;
      if (!from) why.push_back(missing(placements, b, "the base case"));
      if (!to) why.push_back(missing(placements, h, "the new case"));
      scene.omitted.push_back(
          {fmt::format("comparison arrow {} ({})", c.name, to_string(c.verdict)),
           fmt::format("{}", fmt::join(why, "; ")), false});
      continue;
    }
    std::optional<SceneArrow> a = arrow_between(*from, *to);
    if (!a) {
      too_close.push_back(i);
      continue;
    }
    a->kind = SceneArrow::Kind::comparison;
    a->pair = i;
    scene.arrows.push_back(*a);
  }
  return too_close;
}

}  // namespace ridgeline::detail
