// The roofline scene: which roofs, which axis ranges, where every point and label goes.
// All arithmetic is on log10 values of usable numbers, so nothing here can overflow,
// loop without end or produce a coordinate outside the canvas.
#include "ridgeline/analysis/roofline_scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "ridgeline/analysis/usable.hpp"
#include "scene_arrows.hpp"
#include "scene_axes.hpp"
#include "scene_caption.hpp"
#include "scene_joins.hpp"
#include "scene_labels.hpp"
#include "scene_roofs.hpp"

namespace ridgeline {

namespace {

using detail::add_roofs;
using detail::axis;
using detail::decades;
using detail::Group;
using detail::Machines;
using detail::Mapper;
using detail::Omissions;
using detail::roof_groups;
using detail::window_range;

std::string range_text(const SceneAxis& x, const SceneAxis& y) {
  return fmt::format("intensity {:g} to {:g} FLOP/B, {:g} to {:g} GFLOP/s", x.lo, x.hi, y.lo / 1e9,
                     y.hi / 1e9);
}

// The scene's axes, roofs, labels and points: everything but the arrows and the caption.
RooflineScene placed_scene(const std::vector<RooflinePlacement>& placements,
                           const Machines& machines, const SceneCanvas& canvas) {
  RooflineScene scene;
  scene.canvas = canvas;
  Omissions omit(scene);
  std::vector<std::vector<Group>> per_machine;  // each machine's roofs
  for (std::size_t k = 0; k < machines.list.size(); ++k)
    per_machine.push_back(machines.list[k].machine ? roof_groups(placements, machines, k, omit)
                                                   : std::vector<Group>{});

  // Axis ranges from the points, the peaks and the ridge points.
  std::vector<double> xs, ys;
  for (const auto& p : placements)
    if (p.placeable && usable(p.achieved))
      for (const auto& [level, ai] : p.intensity)
        if (usable(ai)) {
          xs.push_back(std::log10(ai));
          ys.push_back(std::log10(p.achieved));
        }
  for (const auto& groups : per_machine)
    for (const auto& g : groups) {
      for (const auto& peak : g.peaks) {
        ys.push_back(std::log10(peak.per_second));
        for (const auto& [level, bw] : g.memory)
          xs.push_back(std::log10(peak.per_second) - std::log10(bw.bytes_per_s));
      }
      if (g.peaks.empty())  // memory roofs alone: where they cross intensity 1
        for (const auto& [level, bw] : g.memory) ys.push_back(std::log10(bw.bytes_per_s));
    }
  // Room left of the lowest ridge point for the steepest roofs' labels.
  auto [xlo, xhi] = decades(xs, std::log10(5.0), std::log10(2.0), -1, 2);
  auto [ylo, yhi] = decades(ys, std::log10(2.0), std::log10(1.5), 9, 11);
  const auto [wxlo, wxhi] = canvas.window ? window_range(canvas.window->x_lo, canvas.window->x_hi)
                                          : std::pair<double, double>(xlo, xhi);
  const auto [wylo, wyhi] = canvas.window ? window_range(canvas.window->y_lo, canvas.window->y_hi)
                                          : std::pair<double, double>(ylo, yhi);
  scene.x = axis(wxlo, wxhi, canvas.plot_left(), canvas.plot_right(), 1);
  scene.y = axis(wylo, wyhi, canvas.plot_bottom(), canvas.plot_top(), 1e-9);
  const Mapper m(scene.canvas, scene.x, scene.y);

  std::vector<scene::LabelRequest> compute_labels, memory_labels;
  for (std::size_t k = 0; k < per_machine.size(); ++k)
    add_roofs(scene, omit, per_machine[k], machines, k, m, compute_labels, memory_labels);
  // Peaks first (the fewest places), then the memory roofs from the highest bandwidth.
  std::stable_sort(memory_labels.begin(), memory_labels.end(), [&](const auto& a, const auto& b) {
    return scene.lines[a.line].value > scene.lines[b.line].value;
  });
  compute_labels.insert(compute_labels.end(), memory_labels.begin(), memory_labels.end());

  for (std::size_t i = 0; i < placements.size(); ++i) {
    const auto& p = placements[i];
    if (!p.placeable) continue;
    for (const auto& [level, ai] : p.intensity) {
      const double lx = std::log10(ai), ly = std::log10(p.achieved);
      if (usable(ai) && usable(p.achieved) && m.in_x(lx) && m.in_y(ly)) {
        scene.points.push_back({i, level, ai, m.px(lx), m.py(ly)});
        continue;
      }
      omit(p.name,
           fmt::format("intensity {:.3g} FLOP/B ({}) at {:.3g} GFLOP/s is outside the plotted "
                       "range ({})",
                       ai, level, p.achieved / 1e9, range_text(scene.x, scene.y)),
           true);
    }
  }
  // After the points: a label never covers one.
  scene::place_labels(scene, compute_labels);
  return scene;
}

}  // namespace

RooflineScene roofline_scene(const std::vector<RooflinePlacement>& placements,
                             const MachineModel* machine, const SceneCanvas& canvas,
                             const std::vector<FusionPair>& fusion,
                             const std::vector<PowerCapRoof>& power_caps) {
  Machines machines{{{machine, ""}}};
  machines.power_caps = &power_caps;
  RooflineScene scene = placed_scene(placements, machines, canvas);
  detail::add_fusion_arrows(scene, placements, fusion);
  detail::add_einsum_joins(scene, placements);
  scene.caption = detail::scene_caption(placements, scene);
  return scene;
}

RooflineScene comparison_scene(const std::vector<RooflinePlacement>& placements,
                               std::size_t base_count, const std::vector<CaseComparison>& cases,
                               const MachineModel* machine, const SceneCanvas& canvas,
                               const MachineModel* base_machine) {
  // Two machines: the new run's roofs first (solid), the base run's second.
  std::vector<std::size_t> machine_of;
  Machines machines{{{machine, ""}}};
  if (base_machine && machine) {
    const std::vector<std::string> names = machine_names({machine, base_machine});
    machines.list = {{machine, names[0]}, {base_machine, names[1]}};
    machine_of.assign(placements.size(), 0);
    std::fill(
        machine_of.begin(),
        machine_of.begin() + static_cast<std::ptrdiff_t>(std::min(base_count, placements.size())),
        1);
    machines.machine_of = &machine_of;
  }
  RooflineScene scene = placed_scene(placements, machines, canvas);
  const std::vector<std::size_t> too_close =
      detail::add_comparison_arrows(scene, placements, base_count, cases);
  scene.caption = detail::scene_caption(placements, scene);
  std::string line = fmt::format(
      "Hollow markers are the base run, filled ones the new run; {} arrow{} from a case's base "
      "point to its new point, coloured by verdict",
      scene.arrows.size(), scene.arrows.size() == 1 ? "" : "s");
  if (!too_close.empty()) {
    std::map<Verdict, std::size_t> by_verdict;
    for (std::size_t i : too_close) ++by_verdict[cases[i].verdict];
    std::vector<std::string> counts;
    for (const auto& [v, n] : by_verdict) counts.push_back(fmt::format("{} {}", n, to_string(v)));
    line += fmt::format("; {} of the {} compared cases moved too little to draw an arrow ({})",
                        too_close.size(), cases.size(), fmt::join(counts, ", "));
  }
  // Before "Hover a point for its numbers.", the last line.
  scene.caption.insert(scene.caption.end() - 1, line + ".");
  return scene;
}

std::vector<std::string> machine_names(const std::vector<const MachineModel*>& models) {
  std::vector<std::string> out;
  for (const MachineModel* m : models) {
    std::string name = m ? (m->host.empty() ? "(unnamed)" : m->host) : "";
    for (const MachineModel* other : models)
      if (m && other && other != m && other->host == m->host) {
        const bool same_day = other->date.substr(0, 10) == m->date.substr(0, 10);
        name += " " + (same_day ? m->date : m->date.substr(0, 10));
        break;
      }
    out.push_back(std::move(name));
  }
  return out;
}

RooflineScene overlay_scene(const std::vector<RooflinePlacement>& placements,
                            const std::vector<std::size_t>& machine_of,
                            const std::vector<SceneMachine>& machines, const SceneCanvas& canvas) {
  if (machine_of.size() != placements.size())
    throw std::invalid_argument("overlay_scene: one machine index per placement");
  for (std::size_t k : machine_of)
    if (k >= machines.size()) throw std::invalid_argument("overlay_scene: no such machine");
  RooflineScene scene = placed_scene(placements, Machines{machines, &machine_of}, canvas);
  scene.caption = detail::scene_caption(placements, scene);
  return scene;
}

}  // namespace ridgeline
