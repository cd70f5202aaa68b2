// The lines of the roofline scene that join one einsum contraction's lowerings: its cases
// share the FLOPs and differ in the bytes each lowering adds and in their time, so joined
// they read as one contraction's choices.
#include "scene_joins.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "ridgeline/analysis/where_ran.hpp"

namespace ridgeline::detail {

void add_einsum_joins(RooflineScene& scene, const std::vector<RooflinePlacement>& placements) {
  using Key =
      std::tuple<std::string, std::string, int, Device, std::string, std::string, CacheState>;
  std::map<Key, std::pair<std::string, std::vector<SceneXY>>> groups;
  for (const ScenePoint& pt : scene.points) {
    const RooflinePlacement& p = placements[pt.placement];
    if (p.op != "einsum" || pt.level != p.level) continue;  // its point at its own level
    auto& [what, points] =
        groups[{p.params, p.dtype, p.threads, p.device, p.pattern, p.fp_env, p.cache}];
    if (what.empty())
      what = fmt::format("einsum {} {}, {}", p.params, p.dtype, where_ran(p.device, p.threads));
    points.push_back({pt.x, pt.y});
  }
  for (auto& [key, group] : groups) {
    auto& [what, points] = group;
    if (points.size() < 2) continue;
    // The fastest is the highest point: the smallest y in pixels.
    const auto best = std::min_element(
        points.begin(), points.end(), [](const SceneXY& a, const SceneXY& b) { return a.y < b.y; });
    SceneJoin j{std::move(what), *best, {}};
    for (auto it = points.begin(); it != points.end(); ++it)
      if (it != best) j.others.push_back(*it);
    scene.joins.push_back(std::move(j));
  }
}

}  // namespace ridgeline::detail
