// The einsum section's bar chart (einsum_sections.hpp): per contraction, one bar per
// lowering that ran, its rate on a linear axis from zero, fastest first, labelled with its
// time per call and its time over the best's. A lowering whose steps were lapped (TTGT) has
// its bar cut by each step's share of its time, the permutes drawn pale: the part of the
// framework's time that moved data and computed nothing.
#include <fmt/format.h>

#include <algorithm>

#include "einsum_sections.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline::reports {

namespace {

constexpr double kBarsWidth = 640, kBarsLeft = 130, kBarsRight = 190, kRow = 22, kBar = 14,
                 kBarsTop = 8;

// One step's segment of a lowering's bar: x from, width, and its tooltip.
std::string segment(double x, double width, double y, const std::string& colour, bool pale,
                    const std::string& tip) {
  return fmt::format(
      R"svg(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" fill-opacity="{}" stroke="{}"><title>{}</title></rect>)svg",
      x, y, std::max(width, 0.5), kBar, colour, pale ? 0.35 : 0.9, colour, escape_html(tip));
}

}  // namespace

std::string einsum_bars_svg(const EinsumComparison& c, const BackendColours& colours) {
  std::vector<const EinsumLowering*> ran;
  for (const EinsumLowering& l : c.lowerings)
    if (l.ran && l.achieved > 0) ran.push_back(&l);  // fastest first already
  if (ran.empty()) return "";
  double fastest_rate = 0;
  for (const EinsumLowering* l : ran) fastest_rate = std::max(fastest_rate, l->achieved);
  const double span = kBarsWidth - kBarsLeft - kBarsRight;
  const double height = kBarsTop * 2 + kRow * static_cast<double>(ran.size()) + 18;
  std::string s = fmt::format(
      R"svg(<svg class="einsum-bars" xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1:.0f}" viewBox="0 0 {0} {1:.0f}" font-family="sans-serif" font-size="11">)svg",
      kBarsWidth, height);
  for (std::size_t i = 0; i < ran.size(); ++i) {
    const EinsumLowering& l = *ran[i];
    const double y = kBarsTop + kRow * static_cast<double>(i);
    const double width = span * l.achieved / fastest_rate;
    const std::string colour = colour_of(colours, l.backend);
    s += fmt::format(
        R"svg(<text x="{}" y="{:.1f}" text-anchor="end" dominant-baseline="middle">{}</text>)svg",
        kBarsLeft - 6, y + kBar / 2, escape_html(l.backend));
    const std::string tip =
        fmt::format("{}: {}, {} GFLOP/s", l.backend, duration(l.seconds), gflops(l.achieved));
    if (l.passes && l.passes->passes_seconds > 0) {
      double x = kBarsLeft;
      for (const PassPoint& p : l.passes->passes) {
        const double w = width * p.seconds / l.passes->passes_seconds;
        const bool permute = p.step == StepKind::permute;
        s += segment(x, w, y, colour, permute,
                     fmt::format("{}: {} {}, {} of its time", l.backend, p.name,
                                 duration(p.seconds), percent(p.share)));
        x += w;
      }
    } else {
      s += segment(kBarsLeft, width, y, colour, false, tip);
    }
    s += fmt::format(
        R"svg(<text x="{:.1f}" y="{:.1f}" dominant-baseline="middle">{} GFLOP/s, {}, {}</text>)svg",
        kBarsLeft + width + 6, y + kBar / 2, fixed(l.achieved / 1e9, 1), duration(l.seconds),
        times(l.vs_best));
  }
  const double axis = kBarsTop + kRow * static_cast<double>(ran.size()) + 2;
  s += fmt::format(
      R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#868e96"/><text x="{0}" y="{3:.1f}">0</text><text x="{1}" y="{3:.1f}" text-anchor="middle">{4} GFLOP/s</text></svg>)svg",
      kBarsLeft, kBarsLeft + span, axis, axis + 12, fixed(fastest_rate / 1e9, 1));
  return s;
}

}  // namespace ridgeline::reports
