// The eltwise chain's sweep plot: time per call (top) and intensity (bottom) against the
// chain length L on a log2 axis, log10 values up the side, one line per backend, the
// machine's ridge intensity and the L where a series reaches it. Every value drawn is a
// usable number from the analysis model (finite, positive), so every coordinate is finite.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "fusion_sections.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline::reports {

namespace {

constexpr double kWidth = 640, kHeight = 450, kLeft = 78, kRight = 150;
constexpr double kTimeTop = 28, kTimeBottom = 190, kAiTop = 232, kAiBottom = 394;
constexpr double kMaxRidgeBeyond = 4;  // a ridge L up to 4x the longest chain widens the axis
constexpr int kMaxTicks = 8;

struct LogAxis {
  double lo = 0, hi = 1;  // log10 (or log2) of the ends
  double from = 0, to = 0;
  double at(double log_value) const { return from + (log_value - lo) / (hi - lo) * (to - from); }
};

// Whole decades around `logs` (log10 values), at least one.
LogAxis decades(const std::vector<double>& logs, double bottom, double top) {
  const auto [mn, mx] = std::minmax_element(logs.begin(), logs.end());
  const double lo = std::floor(*mn), hi = std::max(std::ceil(*mx), lo + 1);
  return {lo, hi, bottom, top};
}

std::string y_ticks(const LogAxis& a, const char* what) {
  std::string s;
  const int step = std::max(1, static_cast<int>(std::ceil((a.hi - a.lo) / kMaxTicks)));
  for (double d = a.lo; d <= a.hi + 1e-9; d += step) {
    const double v = std::pow(10.0, d);
    const std::string label = std::string(what) == "time" ? duration(v) : fmt::format("{:g}", v);
    s += fmt::format(
        R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#e9ecef"/><text x="{3}" y="{2:.1f}" text-anchor="end" dominant-baseline="middle">{4}</text>)svg",
        kLeft, kWidth - kRight, a.at(d), kLeft - 6, escape_html(label));
  }
  return s;
}

std::string panel(double top, double bottom, const std::string& title) {
  return fmt::format(
      R"svg(<rect x="{0}" y="{1}" width="{2}" height="{3}" fill="#fff" stroke="#868e96"/><text transform="translate(16 {4}) rotate(-90)" text-anchor="middle">{5}</text>)svg",
      kLeft, top, kWidth - kRight - kLeft, bottom - top, (top + bottom) / 2, escape_html(title));
}

}  // namespace

std::string sweep_svg(const std::vector<const EltwiseSweep*>& group,
                      const BackendColours& colours) {
  std::vector<double> ls, ts, ais;
  double max_length = 1;
  for (const EltwiseSweep* sw : group)
    for (const auto& p : sw->points) {
      ls.push_back(std::log2(static_cast<double>(p.length)));
      ts.push_back(std::log10(p.seconds));
      ais.push_back(std::log10(p.intensity));
      max_length = std::max(max_length, static_cast<double>(p.length));
    }
  double ridge_ai = 0;
  std::string ridge_level;
  for (const EltwiseSweep* sw : group) {
    if (sw->ridge_intensity > 0) {
      ridge_ai = sw->ridge_intensity;
      ridge_level = sw->level;
    }
    if (sw->ridge_length >= 1 && sw->ridge_length <= kMaxRidgeBeyond * max_length)
      ls.push_back(std::log2(sw->ridge_length));
  }
  if (ls.empty()) return "";
  if (ridge_ai > 0) ais.push_back(std::log10(ridge_ai));
  const auto [lmin, lmax] = std::minmax_element(ls.begin(), ls.end());
  const LogAxis x{*lmin - 0.3, *lmax + 0.3, kLeft, kWidth - kRight};
  const LogAxis t = decades(ts, kTimeBottom, kTimeTop);
  const LogAxis a = decades(ais, kAiBottom, kAiTop);

  std::string s = fmt::format(
      R"svg(<svg class="sweep" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" aria-label="Eltwise chain against L" font-family="sans-serif" font-size="12">)svg",
      kWidth, kHeight);
  s += panel(kTimeTop, kTimeBottom, "time per call") + y_ticks(t, "time");
  s += panel(kAiTop, kAiBottom, "intensity (FLOP/B)") + y_ticks(a, "intensity");
  for (int k = static_cast<int>(std::ceil(x.lo)); k <= static_cast<int>(std::floor(x.hi)); ++k)
    s += fmt::format(
        R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#e9ecef"/><line x1="{0:.1f}" x2="{0:.1f}" y1="{3}" y2="{4}" stroke="#e9ecef"/><text x="{0:.1f}" y="{5}" text-anchor="middle">{6}</text>)svg",
        x.at(k), kTimeTop, kTimeBottom, kAiTop, kAiBottom, kAiBottom + 18, std::ldexp(1.0, k));
  s += fmt::format(R"svg(<text x="{}" y="{}" text-anchor="middle">chain length L</text>)svg",
                   (kLeft + kWidth - kRight) / 2, kAiBottom + 38);
  if (ridge_ai > 0) {
    const double y = a.at(std::log10(ridge_ai));
    s += fmt::format(
        R"svg(<line class="sweep-ridge" x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#c92a2a" stroke-dasharray="6 4"/><text x="{3}" y="{2:.1f}" fill="#c92a2a" dominant-baseline="middle">{4} ridge {5} FLOP/B</text>)svg",
        kLeft, kWidth - kRight, y, kWidth - kRight + 6, escape_html(ridge_level),
        intensity(ridge_ai));
  }
  double legend_y = kTimeTop + 8;
  for (const EltwiseSweep* sw : group) {
    const std::string colour = colour_of(colours, sw->backend);
    const char* dash = sw->fused ? "" : R"svg( stroke-dasharray="5 3")svg";
    std::string time_line, ai_line, dots;
    for (const auto& p : sw->points) {
      const double px = x.at(std::log2(static_cast<double>(p.length)));
      const double ty = t.at(std::log10(p.seconds)), ay = a.at(std::log10(p.intensity));
      time_line += fmt::format("{:.1f},{:.1f} ", px, ty);
      ai_line += fmt::format("{:.1f},{:.1f} ", px, ay);
      const std::string tip =
          escape_html(fmt::format("{} L={}: {}, {} GFLOP/s, {} FLOP/B", sw->backend, p.length,
                                  duration(p.seconds), gflops(p.achieved), intensity(p.intensity)));
      for (double y : {ty, ay})
        dots += fmt::format(
            R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"><title>{}</title></circle>)svg",
            px, y, colour, tip);
    }
    for (const auto& line : {time_line, ai_line})
      s += fmt::format(
          R"svg(<polyline class="sweep-series" data-backend="{}" points="{}" fill="none" stroke="{}" stroke-width="1.8"{}/>)svg",
          escape_html(sw->backend), line, colour, dash);
    s += dots;
    s += fmt::format(
        R"svg(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="{3}" stroke-width="1.8"{4}/><text x="{5}" y="{2}" dominant-baseline="middle">{6}</text>)svg",
        kWidth - kRight + 6, kWidth - kRight + 24, legend_y, colour, dash, kWidth - kRight + 28,
        escape_html(sw->backend));
    legend_y += 16;
    if (sw->ridge_length >= 1 && sw->ridge_length <= kMaxRidgeBeyond * max_length) {
      const double px = x.at(std::log2(sw->ridge_length));
      s += fmt::format(
          R"svg(<line class="sweep-ridge-length" x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#c92a2a" stroke-dasharray="2 3"><title>{3}</title></line><text x="{0:.1f}" y="{4}" fill="#c92a2a" text-anchor="middle">L ≈ {5:.3g}{6}</text>)svg",
          px, kTimeTop, kAiBottom, escape_html(ridge_text(*sw)), kTimeTop - 6, sw->ridge_length,
          sw->ridge_extrapolated ? " (extrapolated)" : "");
    }
  }
  return s + "</svg>";
}

}  // namespace ridgeline::reports
