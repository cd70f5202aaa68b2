// The machine section's memory sweep plot: draws the sweep scene (analysis/sweep_scene.hpp).
// It computes no position: the scene holds them.
#include "memory_sweep_svg.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/sweep_scene.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::reports {

std::string memory_sweep_svg(const MachineModel& m, const std::vector<BandwidthMark>& marks,
                             const BackendColours& colours) {
  const std::optional<SweepScene> scene = sweep_scene(m, marks);
  if (!scene) return "";
  const SweepScene& sc = *scene;
  std::string s = fmt::format(
      R"svg(<svg class="memory-sweep" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}" font-size="11" font-family="sans-serif"><rect x="{2}" y="{3}" width="{4}" height="{5}" fill="#fff" stroke="#868e96"/>)svg",
      sc.width, sc.height, sc.left, sc.top, sc.right - sc.left, sc.bottom - sc.top);
  for (const auto& t : sc.x_ticks)
    s += fmt::format(
        R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#e9ecef"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)svg",
        t.pixel, sc.top, sc.bottom, sc.bottom + 18, escape_html(t.text));
  for (const auto& t : sc.y_ticks)
    s += fmt::format(
        R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#e9ecef"/><text x="{3}" y="{2:.1f}" text-anchor="end" dominant-baseline="middle">{4}</text>)svg",
        sc.left, sc.right, t.pixel, sc.left - 6, escape_html(t.text));
  s += fmt::format(R"svg(<text x="{0}" y="{1}" text-anchor="middle">{2}</text>)svg",
                   (sc.left + sc.right) / 2, sc.bottom + 32, escape_html(sc.x_title));
  for (const auto& h : sc.hwloc)
    s += fmt::format(
        R"svg(<line class="hwloc" x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="{3}" stroke-dasharray="4 3"/><text x="{4:.1f}" y="{5}" fill="{3}" transform="rotate(-90 {4:.1f} {5})" text-anchor="end">{6}</text>)svg",
        h.x, sc.top, sc.bottom, h.off ? "#e03131" : "#868e96", h.x - 3, sc.top + 4,
        escape_html(h.text));
  for (const auto& b : sc.bands) {
    s += fmt::format(
        R"svg(<line class="level" x1="{0:.1f}" x2="{1:.1f}" y1="{2:.1f}" y2="{2:.1f}" stroke="{3}" stroke-width="7" stroke-opacity="0.25"><title>{4}</title></line>)svg",
        b.x0, b.x1, b.y, sweep_colour(b.kernel, b.threads), escape_html(b.tip));
    if (b.label)
      s += fmt::format(R"svg(<text x="{0:.1f}" y="{1:.1f}" fill="#1c7ed6">{2}</text>)svg", b.x0,
                       b.y - 6, escape_html(b.name));
  }
  for (const auto& l : sc.sweeps) {
    std::string points;
    for (const auto& p : l.points) points += fmt::format("{:.1f},{:.1f} ", p.x, p.y);
    const char* colour = sweep_colour(l.kernel, l.threads);
    s += fmt::format(
        R"svg(<polyline class="sweep" points="{0}" fill="none" stroke="{1}" stroke-width="1.5"/><line x1="{2}" x2="{3}" y1="{4}" y2="{4}" stroke="{1}" stroke-width="2"/><text x="{5}" y="{4}" dominant-baseline="middle">{6}</text>)svg",
        points, colour, sc.right + 10, sc.right + 28, l.legend_y, sc.right + 32,
        escape_html(l.legend));
  }
  const auto diamond = [&](double x, double y, const std::string& group) {
    return fmt::format(
        R"svg(<path d="M{0:.1f},{1:.1f} l5,5 l-5,5 l-5,-5 z" fill="{2}" stroke="#212529" stroke-width="0.5">)svg",
        x, y - 5, colour_of(colours, group));
  };
  for (const auto& k : sc.marks) {
    s += R"svg(<g class="mark">)svg" + diamond(k.x, k.y, k.group) +
         fmt::format("<title>{}</title></path>", escape_html(k.tip));
    if (k.labelled)
      s += fmt::format(R"svg(<text x="{0:.1f}" y="{1:.1f}" font-size="10">{2}</text>)svg", k.x + 7,
                       k.y + 3, escape_html(k.label));
    s += "</g>";
  }
  for (const auto& g : sc.mark_groups)
    s += diamond(sc.right + 19, g.legend_y, g.name) +
         fmt::format(R"svg(</path><text x="{0}" y="{1}" dominant-baseline="middle">{2}</text>)svg",
                     sc.right + 32, g.legend_y, escape_html(g.name));
  return s + "</svg>";
}

}  // namespace ridgeline::reports
