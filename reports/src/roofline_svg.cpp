// Draws the roofline scene. It computes no position and no range: the scene holds them.
#include "roofline_svg.hpp"

#include <algorithm>

#include "format.hpp"
#include "ridgeline/reports/escape.hpp"

namespace ridgeline::reports {

namespace {

const char* level_colour(const std::string& level) {
  if (level == "L1" || level == "SMEM") return "#2b8a3e";  // SMEM: the GPU's L1 array
  if (level == "PCIe") return "#868e96";
  if (level == "L2") return "#1971c2";
  if (level == "L3") return "#e67700";
  return "#c92a2a";  // DRAM, HBM and anything else
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

// The tooltip: each line escaped on its own (a newline inside a name shows as \x0A),
// joined by real newlines.
std::string point_tip(const RooflinePlacement& p, const ScenePoint& pt) {
  std::vector<std::string> lines{
      p.name,
      fmt::format("{} GFLOP/s, {} thread{}", gflops(p.achieved), p.threads,
                  p.threads == 1 ? "" : "s"),
      fmt::format("intensity {} FLOP/B ({})", intensity(pt.intensity), pt.level)};
  if (p.attainable > 0)
    lines.push_back(fmt::format("attainable {} GFLOP/s, efficiency {}, bound: {}",
                                gflops(p.attainable), percent(p.efficiency), p.bound));
  lines.push_back(fmt::format("sources: FLOPs {}, bytes {}, time timed", to_string(p.flops_source),
                              to_string(p.bytes_source)));
  if (p.foreign) lines.push_back("not validated by Ridgeline (a foreign Google Benchmark result)");
  for (const auto& n : p.notes)
    if (n.kind != NoteKind::origin)
      lines.push_back(fmt::format("{}: {}", to_string(n.kind), n.text));
  if (p.above_roof)
    lines.push_back("ABOVE THE ROOF: the work model or the ceilings do not hold for this case");
  std::string tip;
  for (const auto& line : lines) {
    if (!tip.empty()) tip += '\n';
    tip += escape_html(line);
  }
  return tip;
}

// Each line escaped on its own, as in point_tip.
std::string arrow_tip(const FusionPair& p) {
  std::vector<std::string> lines{fmt::format("fusion: {} {} {}, {} thread{}", p.op, p.params,
                                             p.dtype, p.threads, p.threads == 1 ? "" : "s"),
                                 fmt::format("{} → {}", p.unfused.backend, p.fused.backend)};
  if (p.speedup > 0) lines.push_back("speedup " + times(p.speedup));
  if (p.byte_ratio > 0) lines.push_back("bytes unfused ÷ fused " + times(p.byte_ratio));
  if (p.time_over_bytes > 0) lines.push_back("speedup ÷ byte ratio " + fixed(p.time_over_bytes, 2));
  std::string tip;
  for (const auto& line : lines) {
    if (!tip.empty()) tip += '\n';
    tip += escape_html(line);
  }
  return tip;
}

}  // namespace

BackendColours backend_colours(const ReportInput& input) {
  static const char* palette[] = {"#4263eb", "#f76707", "#2f9e44", "#ae3ec9", "#e03131", "#1098ad",
                                  "#f59f00", "#5c940d", "#d6336c", "#495057", "#7048e8", "#0ca678"};
  BackendColours colours;
  for (const auto& p : input.placements)
    if (!colours.count(p.backend))
      colours[p.backend] = palette[colours.size() % (sizeof palette / sizeof palette[0])];
  return colours;
}

std::string roofline_svg(const RooflineScene& sc, const ReportInput& in,
                         const BackendColours& colours) {
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
        l.dashed ? R"svg( stroke-dasharray="7 4")svg" : "");
  }
  for (const auto& r : sc.ridges)
    s += fmt::format(
        R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"><title>ridge point {} {} ({}): {} FLOP/B</title></circle>)svg",
        r.x, r.y, level_colour(r.level), escape_html(r.dtype), escape_html(r.level),
        r.device == "gpu" ? std::string("GPU")
                          : fmt::format("{} thread{}", r.threads, r.threads == 1 ? "" : "s"),
        intensity(r.intensity));
  for (const auto& l : sc.labels)
    s += fmt::format(
        R"svg(<text class="roof-label" x="{0:.1f}" y="{1:.1f}" transform="rotate({2:.2f} {0:.1f} {1:.1f})" fill="{3}" font-size="{4}" data-w="{5:.1f}">{6}</text>)svg",
        l.x, l.y, l.angle, l.level.empty() ? "#212529" : level_colour(l.level), c.label_px, l.width,
        escape_html(l.text));
  // Under the markers: each arrow ends at its fused point's edge.
  for (const auto& a : sc.arrows) {
    if (a.pair >= in.fusion.pairs.size()) continue;
    s += fmt::format(
        R"svg(<path class="fusion-arrow" d="M{:.1f},{:.1f} L{:.1f},{:.1f} M{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} Z" stroke="#343a40" stroke-width="1.5" fill="#343a40"><title>{}</title></path>)svg",
        a.from.x, a.from.y, a.to.x, a.to.y, a.head[0].x, a.head[0].y, a.head[1].x, a.head[1].y,
        a.head[2].x, a.head[2].y, arrow_tip(in.fusion.pairs[a.pair]));
  }
  for (const auto& pt : sc.points) {
    if (pt.placement >= in.placements.size()) continue;
    const RooflinePlacement& p = in.placements[pt.placement];
    s += "<g class=\"point\">" +
         marker(p.dtype, pt.x, pt.y, colours.at(p.backend), p.above_roof ? "#e03131" : "#212529") +
         "<title>" + point_tip(p, pt) + "</title></g>";
  }
  s += "</g></svg>";
  return s;
}

}  // namespace ridgeline::reports
