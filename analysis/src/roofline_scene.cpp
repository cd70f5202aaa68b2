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

using detail::axis;
using detail::decades;
using detail::Group;
using detail::Machines;
using detail::Omissions;
using detail::roof_groups;
using detail::window_range;

// A number as a label shows it: fixed below a million, else with an exponent.
std::string fixed(double v, int decimals) {
  return std::fabs(v) < 1e6 ? fmt::format("{:.{}f}", v, decimals) : fmt::format("{:.4g}", v);
}

class Mapper {
 public:
  Mapper(const SceneCanvas& c, const SceneAxis& x, const SceneAxis& y)
      : c_(c),
        x0_(std::log10(x.lo)),
        x1_(std::log10(x.hi)),
        y0_(std::log10(y.lo)),
        y1_(std::log10(y.hi)) {}
  // Pixels of log10 coordinates.
  double px(double lx) const {
    return c_.plot_left() + (lx - x0_) / (x1_ - x0_) * (c_.plot_right() - c_.plot_left());
  }
  double py(double ly) const {
    return c_.plot_bottom() - (ly - y0_) / (y1_ - y0_) * (c_.plot_bottom() - c_.plot_top());
  }
  bool in_x(double lx) const { return lx >= x0_ - 1e-9 && lx <= x1_ + 1e-9; }
  bool in_y(double ly) const { return ly >= y0_ - 1e-9 && ly <= y1_ + 1e-9; }
  double x0() const { return x0_; }
  double x1() const { return x1_; }
  double y0() const { return y0_; }
  double y1() const { return y1_; }

 private:
  const SceneCanvas& c_;
  double x0_, x1_, y0_, y1_;
};

std::string range_text(const SceneAxis& x, const SceneAxis& y) {
  return fmt::format("intensity {:g} to {:g} FLOP/B, {:g} to {:g} GFLOP/s", x.lo, x.hi, y.lo / 1e9,
                     y.hi / 1e9);
}

// Roof lines (clipped to the plot), ridge points and the labels' texts of machine `k`.
void add_roofs(RooflineScene& scene, Omissions& omit, const std::vector<Group>& groups,
               const Machines& machines, std::size_t k, const Mapper& m,
               std::vector<scene::LabelRequest>& compute_labels,
               std::vector<scene::LabelRequest>& memory_labels) {
  for (const auto& g : groups) {
    const std::string name = machines.who(k, g.device, g.threads);
    const bool dashed = g.threads > 1 || g.device == Device::gpu;
    const double top = g.peaks.empty() ? std::numeric_limits<double>::infinity()
                                       : std::log10(g.peaks.front().per_second);
    for (const auto& [level, bw] : g.memory) {
      const double lbw = std::log10(bw.bytes_per_s);
      // log rate = lbw + log intensity, from the left edge up to the highest peak.
      const double lx0 = std::max(m.x0(), m.y0() - lbw);
      const double lx1 = std::min({m.x1(), m.y1() - lbw, top - lbw});
      const std::string what =
          fmt::format("{} {}: {} GB/s", level, name, fixed(bw.bytes_per_s / 1e9, 1));
      if (!(lx1 - lx0 > 1e-6)) {
        omit("memory roof " + what, "outside the plotted range");
        continue;
      }
      scene.lines.push_back({SceneLine::Kind::memory, level, g.device, g.threads, bw.bytes_per_s,
                             bw.kernel, dashed, m.px(lx0), m.py(lbw + lx0), m.px(lx1),
                             m.py(lbw + lx1), k});
      memory_labels.push_back({what, scene.lines.size() - 1});
    }
    for (const auto& peak : g.peaks) {
      const double lp = std::log10(peak.per_second);
      double start = m.x1();
      for (const auto& [level, bw] : g.memory) {
        const double lr = lp - std::log10(bw.bytes_per_s);
        start = std::min(start, lr);
        if (m.in_x(lr) && m.in_y(lp))
          scene.ridges.push_back(
              {m.px(lr), m.py(lp), std::pow(10.0, lr), peak.dtype, level, g.device, g.threads});
      }
      if (g.memory.empty()) start = m.x0();
      start = std::max(start, m.x0());
      const std::string what = fmt::format("{} {} peak: {} GFLOP/s ({})", peak.dtype, name,
                                           fixed(peak.per_second / 1e9, 2), peak.name);
      if (!m.in_y(lp) || !(m.x1() - start > 1e-6)) {
        omit("compute roof " + what, "outside the plotted range");
        continue;
      }
      scene.lines.push_back({SceneLine::Kind::compute, peak.dtype, g.device, g.threads,
                             peak.per_second, peak.name, dashed, m.px(start), m.py(lp),
                             m.px(m.x1()), m.py(lp), k});
      compute_labels.push_back({what, scene.lines.size() - 1});
    }
    // The power caps: from where the highest memory roof meets them, no ridge of their own.
    for (const auto& cap : g.caps) {
      const double lp = std::log10(cap.flop_rate);
      double start = g.memory.empty() ? m.x0() : m.x1();
      for (const auto& [level, bw] : g.memory)
        start = std::min(start, lp - std::log10(bw.bytes_per_s));
      start = std::max(start, m.x0());
      const std::string what =
          fmt::format("{} {} at the power cap ({} inputs): {} GFLOP/s", cap.dtype, name,
                      cap.pattern, fixed(cap.flop_rate / 1e9, 2));
      if (!m.in_y(lp) || !(m.x1() - start > 1e-6)) {
        omit("compute roof " + what, "outside the plotted range");
        continue;
      }
      SceneLine line{SceneLine::Kind::compute,
                     cap.dtype,
                     g.device,
                     g.threads,
                     cap.flop_rate,
                     cap.pattern,
                     true,
                     m.px(start),
                     m.py(lp),
                     m.px(m.x1()),
                     m.py(lp),
                     k};
      line.power_cap = true;
      scene.lines.push_back(line);
      compute_labels.push_back({what, scene.lines.size() - 1});
    }
  }
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
  scene::place_labels(scene, compute_labels);

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
