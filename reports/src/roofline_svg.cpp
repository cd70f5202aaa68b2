// Draws the roofline scene. It computes no position and no range: the scene holds them.
#include "roofline_svg.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline::reports {

namespace {

// ` stroke-dasharray="7 4"`, or nothing for a solid line.
std::string dasharray(const std::vector<double>& dashes) {
  if (dashes.empty()) return "";
  return fmt::format(R"svg( stroke-dasharray="{:g}")svg", fmt::join(dashes, " "));
}

std::string marker(const std::string& dtype, double cx, double cy, const std::string& fill,
                   const std::string& stroke) {
  if (dtype == "f32")
    return fmt::format(
        R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="5.5" fill="{}" stroke="{}" stroke-width="1.5"/>)svg",
        cx, cy, fill, stroke);
  if (dtype == "f64")
    return fmt::format(
        R"svg(<rect x="{:.1f}" y="{:.1f}" width="10" height="10" fill="{}" stroke="{}" stroke-width="1.5"/>)svg",
        cx - 5, cy - 5, fill, stroke);
  return fmt::format(
      R"svg(<path d="M{:.1f},{:.1f} l6,10 h-12 z" fill="{}" stroke="{}" stroke-width="1.5"/>)svg",
      cx, cy - 6, fill, stroke);
}

std::string axes(const RooflineScene& sc) {
  const SceneCanvas& c = sc.canvas;
  std::string s = fmt::format(
      R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" stroke="#868e96"/>)svg",
      c.plot_left(), c.plot_top(), c.plot_right() - c.plot_left(), c.plot_bottom() - c.plot_top());
  for (const auto& t : sc.x.ticks) {
    s +=
        fmt::format(R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#e9ecef"/>)svg",
                    t.pixel, c.plot_top(), c.plot_bottom());
    s += fmt::format(R"svg(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)svg", t.pixel,
                     c.plot_bottom() + 18, escape_html(t.text));
  }
  for (const auto& t : sc.y.ticks) {
    s +=
        fmt::format(R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#e9ecef"/>)svg",
                    c.plot_left(), c.plot_right(), t.pixel);
    s += fmt::format(
        R"svg(<text x="{}" y="{:.1f}" text-anchor="end" dominant-baseline="middle">{}</text>)svg",
        c.plot_left() - 6, t.pixel, escape_html(t.text));
  }
  s += fmt::format(
      R"svg(<text x="{}" y="{}" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>)svg",
      (c.plot_left() + c.plot_right()) / 2, c.height - 14);
  s += fmt::format(
      R"svg(<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">performance (GFLOP/s)</text>)svg",
      (c.plot_top() + c.plot_bottom()) / 2);
  return s;
}

// Each line escaped on its own (a newline inside a name shows as \x0A), joined by real
// newlines.
std::string tip_text(const std::vector<std::string>& lines) {
  std::string tip;
  for (const auto& line : lines) {
    if (!tip.empty()) tip += '\n';
    tip += escape_html(line);
  }
  return tip;
}

// The tooltip; `run` ("base", "new") first where two runs are drawn.
std::string point_tip(const RooflinePlacement& p, const ScenePoint& pt, const std::string& run,
                      const std::vector<std::string>& extra) {
  std::vector<std::string> lines = point_lines(p, pt, run);
  lines.insert(lines.end(), extra.begin(), extra.end());
  return tip_text(lines);
}

}  // namespace

std::string roofline_svg(const RooflineScene& sc, const SvgMarks& marks) {
  const SceneCanvas& c = sc.canvas;
  std::string s = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" aria-label="Roofline plot" font-family="sans-serif" font-size="12">)svg",
      c.width, c.height);
  s += fmt::format(
      R"svg(<defs><clipPath id="plot"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath></defs>)svg",
      c.plot_left(), c.plot_top(), c.plot_right() - c.plot_left(), c.plot_bottom() - c.plot_top());
  s += axes(sc);
  s += R"svg(<g clip-path="url(#plot)">)svg";
  for (const auto& l : sc.lines) {
    const bool memory = l.kind == SceneLine::Kind::memory;
    s += fmt::format(
        R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="{}"{}/>)svg",
        l.x0, l.y0, l.x1, l.y1, memory ? level_colour(l.level) : "#212529", memory ? 1.8 : 2,
        dasharray(roof_dashes(l)));
  }
  for (const auto& r : sc.ridges)
    s += fmt::format(
        R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"><title>ridge point {} {} ({}): {} FLOP/B</title></circle>)svg",
        r.x, r.y, level_colour(r.level), escape_html(r.dtype), escape_html(r.level),
        where_ran(r.device, r.threads), intensity(r.intensity));
  for (const auto& l : sc.labels)
    s += fmt::format(
        R"svg(<text class="roof-label" x="{0:.1f}" y="{1:.1f}" transform="rotate({2:.2f} {0:.1f} {1:.1f})" fill="{3}" font-size="{4}" data-w="{5:.1f}" stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{6}</text>)svg",
        l.x, l.y, l.angle, l.level.empty() ? "#212529" : level_colour(l.level), c.label_px, l.width,
        escape_html(l.text));
  // Under the markers: each einsum contraction's lowerings joined, then the arrows (each
  // ends at its second point's edge).
  for (const auto& j : sc.joins) {
    std::string d;
    for (const auto& xy : j.others)
      d += fmt::format("{}M{:.1f},{:.1f} L{:.1f},{:.1f}", d.empty() ? "" : " ", j.best.x, j.best.y,
                       xy.x, xy.y);
    s += fmt::format(
        R"svg(<path class="einsum-join" d="{}" fill="none" stroke="#868e96" stroke-width="1.2" stroke-dasharray="2 3"><title>{}</title></path>)svg",
        d, escape_html(j.what));
  }
  for (const auto& a : sc.arrows) {
    const ArrowMark mark = marks.arrow(a);
    s += fmt::format(
        R"svg(<path class="{}-arrow" d="M{:.1f},{:.1f} L{:.1f},{:.1f} M{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} Z" stroke="{}" stroke-width="1.5" fill="{}"><title>{}</title></path>)svg",
        a.kind == SceneArrow::Kind::fusion ? "fusion" : "comparison", a.from.x, a.from.y, a.to.x,
        a.to.y, a.head[0].x, a.head[0].y, a.head[1].x, a.head[1].y, a.head[2].x, a.head[2].y,
        mark.colour, mark.colour, tip_text(mark.tip));
  }
  for (const auto& pt : sc.points) {
    if (pt.placement >= marks.placements.size()) continue;
    const RooflinePlacement& p = marks.placements[pt.placement];
    const bool two_runs = marks.base_count > 0, base = pt.placement < marks.base_count;
    const std::string& colour = marks.colours.at(p.backend);
    const std::string stroke = p.above_roof  ? "#e03131"
                               : p.throttled ? kThrottledStroke
                               : base        ? colour
                                             : "#212529";
    s += fmt::format("<g class=\"point{}\">", two_runs ? base ? " base" : " new" : "") +
         marker(p.dtype, pt.x, pt.y, base ? "#fff" : colour, stroke) + "<title>" +
         point_tip(
             p, pt, marks.run ? marks.run(pt.placement) : "",
             marks.point_lines ? marks.point_lines(pt.placement) : std::vector<std::string>{}) +
         "</title></g>";
  }
  s += "</g></svg>";
  return s;
}

}  // namespace ridgeline::reports
