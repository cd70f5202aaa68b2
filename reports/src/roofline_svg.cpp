#include "roofline_svg.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "format.hpp"
#include "ridgeline/reports/escape.hpp"

namespace ridgeline::reports {

namespace {

constexpr double kWidth = 960, kHeight = 600;
constexpr double kLeft = 80, kRight = 40, kTop = 24, kBottom = 56;

const char* level_colour(const std::string& level) {
  if (level == "L1" || level == "SMEM") return "#2b8a3e";  // SMEM: the GPU's L1 array
  if (level == "PCIe") return "#868e96";
  if (level == "L2") return "#1971c2";
  if (level == "L3") return "#e67700";
  return "#c92a2a";  // DRAM, HBM and anything else
}

struct Axes {
  double xlo, xhi, ylo, yhi;
  double x(double v) const {
    return kLeft + (std::log10(v) - std::log10(xlo)) / (std::log10(xhi) - std::log10(xlo)) *
                       (kWidth - kLeft - kRight);
  }
  double y(double v) const {
    return kHeight - kBottom -
           (std::log10(v) - std::log10(ylo)) / (std::log10(yhi) - std::log10(ylo)) *
               (kHeight - kTop - kBottom);
  }
};

double decade_below(double v) {
  return std::pow(10.0, std::floor(std::log10(v)));
}
double decade_above(double v) {
  return std::pow(10.0, std::ceil(std::log10(v)));
}

std::string axis_number(double v) {
  if (v >= 1) return fmt::format("{:g}", v);
  return fmt::format("{:g}", v);
}

struct Combo {
  std::string dtype;
  int threads;
  std::string device = "cpu";
  bool operator<(const Combo& o) const {
    return std::tie(device, dtype, threads) < std::tie(o.device, o.dtype, o.threads);
  }
};

// "2t" on the CPU, "GPU" for a GPU's ceilings.
std::string who(const std::string& device, int threads) {
  return device == "gpu" ? "GPU" : std::to_string(threads) + "t";
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

}  // namespace

std::string backend_colour(const ReportInput& input, const std::string& backend) {
  static const char* palette[] = {"#4263eb", "#f76707", "#2f9e44", "#ae3ec9", "#e03131", "#1098ad",
                                  "#f59f00", "#5c940d", "#d6336c", "#495057", "#7048e8", "#0ca678"};
  std::vector<std::string> seen;
  for (const auto& p : input.placements)
    if (std::find(seen.begin(), seen.end(), p.backend) == seen.end()) seen.push_back(p.backend);
  auto it = std::find(seen.begin(), seen.end(), backend);
  const std::size_t i = it == seen.end() ? 0 : static_cast<std::size_t>(it - seen.begin());
  return palette[i % (sizeof palette / sizeof palette[0])];
}

std::string roofline_svg(const ReportInput& in) {
  const MachineModel* machine = in.machine ? &*in.machine : nullptr;
  std::set<Combo> combos;
  for (const auto& p : in.placements)
    if (p.placeable) combos.insert({p.dtype, p.threads, p.device});
  if (combos.empty() && machine)
    for (const auto& c : machine->compute)
      if (c.dtype == "f32" || c.dtype == "f64") combos.insert({c.dtype, c.threads, c.device});

  std::vector<std::pair<Combo, Roof>> roofs;
  if (machine)
    for (const auto& c : combos)
      roofs.emplace_back(c, roof_for(*machine, c.dtype, c.threads, c.device));

  // Axis ranges from the points, the peaks and the ridge points.
  std::vector<double> xs, ys;
  for (const auto& p : in.placements)
    if (p.placeable)
      for (const auto& [level, ai] : p.intensity) {
        xs.push_back(ai);
        ys.push_back(p.achieved);
      }
  for (const auto& [combo, roof] : roofs) {
    if (roof.compute) ys.push_back(roof.compute->per_second);
    for (const auto& [level, bw] : roof.memory)
      if (double r = ridge_point(roof, level); r > 0) xs.push_back(r);
  }
  if (xs.empty()) xs = {0.1, 100};
  if (ys.empty()) ys = {1e9, 1e11};
  Axes ax;
  ax.xlo = decade_below(*std::min_element(xs.begin(), xs.end()) / 2);
  ax.xhi = decade_above(*std::max_element(xs.begin(), xs.end()) * 2);
  if (ax.xhi / ax.xlo < 100) ax.xhi = ax.xlo * 100;
  ax.yhi = decade_above(*std::max_element(ys.begin(), ys.end()) * 1.5);
  ax.ylo = decade_below(*std::min_element(ys.begin(), ys.end()) / 2);
  if (ax.yhi / ax.ylo < 100) ax.ylo = ax.yhi / 100;

  std::string s = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" aria-label="Roofline plot" font-family="sans-serif" font-size="12">)svg",
      kWidth, kHeight);
  s += fmt::format(
      R"svg(<defs><clipPath id="plot"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath></defs>)svg",
      kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  s += fmt::format(
      R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="#fff" stroke="#868e96"/>)svg", kLeft,
      kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  // Decade grid and tick labels.
  for (double v = ax.xlo; v <= ax.xhi * 1.0001; v *= 10) {
    s +=
        fmt::format(R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#e9ecef"/>)svg",
                    ax.x(v), kTop, kHeight - kBottom);
    s += fmt::format(R"svg(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)svg", ax.x(v),
                     kHeight - kBottom + 18, axis_number(v));
  }
  for (double v = ax.ylo; v <= ax.yhi * 1.0001; v *= 10) {
    s +=
        fmt::format(R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#e9ecef"/>)svg",
                    kLeft, kWidth - kRight, ax.y(v));
    s += fmt::format(
        R"svg(<text x="{}" y="{:.1f}" text-anchor="end" dominant-baseline="middle">{}</text>)svg",
        kLeft - 6, ax.y(v), axis_number(v / 1e9));
  }
  s += fmt::format(
      R"svg(<text x="{}" y="{}" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>)svg",
      (kLeft + kWidth - kRight) / 2, kHeight - 14);
  s += fmt::format(
      R"svg(<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">performance (GFLOP/s)</text>)svg",
      (kTop + kHeight - kBottom) / 2);

  // Ceilings: memory diagonals up to their ridge points, compute roofs to the right edge.
  s += R"svg(<g clip-path="url(#plot)">)svg";
  const double slope_px = (ax.y(1) - ax.y(10)) / (ax.x(10) - ax.x(1));
  const double angle = -std::atan(slope_px) * 180 / M_PI;
  std::vector<std::pair<double, double>> peak_labels;  // (y, right end) of labels placed
  std::set<std::pair<std::string, int>> groups;        // (device, threads)
  for (const auto& [combo, roof] : roofs) groups.insert({combo.device, combo.threads});
  for (const auto& [device, threads] : groups) {
    const std::string dash =
        threads > 1 || device == "gpu" ? R"svg( stroke-dasharray="7 4")svg" : "";
    const auto in_group = [&](const Combo& c) {
      return c.device == device && c.threads == threads;
    };
    // Memory ceilings do not depend on the dtype: one line per level, up to the highest
    // compute peak at this thread count.
    double top = 0;
    const Roof* any = nullptr;
    for (const auto& [combo, roof] : roofs)
      if (in_group(combo) && roof.compute) {
        top = std::max(top, roof.compute->per_second);
        any = &roof;
      }
    if (!any) continue;
    for (const auto& [level, bw] : any->memory) {
      if (bw.bytes_per_s <= 0) continue;
      const double x0 = ax.xlo, x1 = top / bw.bytes_per_s;
      s += fmt::format(
          R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="1.8"{}/>)svg",
          ax.x(x0), ax.y(bw.bytes_per_s * x0), ax.x(x1), ax.y(top), level_colour(level), dash);
      // On the line, left of where it meets the roof: parallel lines meet it at different
      // intensities, so their labels spread out.
      const double lx = std::max(x1 / 6, std::max(x0 * 1.2, ax.ylo * 1.3 / bw.bytes_per_s));
      if (lx < x1 / 1.5) {
        const double px = ax.x(lx), py = ax.y(bw.bytes_per_s * lx) - 4;
        s += fmt::format(
            R"svg(<text x="{0:.1f}" y="{1:.1f}" transform="rotate({2:.1f} {0:.1f} {1:.1f})" fill="{3}" font-size="11">{4} {5}: {6} GB/s</text>)svg",
            px, py, angle, level_colour(level), escape_html(level), who(device, threads),
            gbytes(bw.bytes_per_s));
      }
    }
    for (const auto& [combo, roof] : roofs) {
      if (!in_group(combo) || !roof.compute) continue;
      const double peak = roof.compute->per_second;
      double min_ridge = ax.xhi;
      for (const auto& [level, bw] : roof.memory) {
        const double ridge = ridge_point(roof, level);
        if (ridge <= 0) continue;
        min_ridge = std::min(min_ridge, ridge);
        s += fmt::format(
            R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"><title>ridge point {} {} ({} thread{}): {} FLOP/B</title></circle>)svg",
            ax.x(ridge), ax.y(peak), level_colour(level), escape_html(combo.dtype),
            escape_html(level), threads, threads > 1 ? "s" : "", intensity(ridge));
      }
      s += fmt::format(
          R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#212529" stroke-width="2"{}/>)svg",
          ax.x(min_ridge), ax.y(peak), ax.x(ax.xhi), ax.y(peak), dash);
      // Right-aligned at the plot's edge; a label that would overlap one already placed
      // moves to the left of it.
      const double ly = ax.y(peak) - 5;
      double right = kWidth - kRight - 6;
      for (const auto& [y, r] : peak_labels)
        if (std::fabs(y - ly) < 13) right = std::min(right, r - 330);
      peak_labels.emplace_back(ly, right);
      s += fmt::format(
          R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="end" fill="#212529">{} {} peak: {} GFLOP/s ({})</text>)svg",
          right, ly, escape_html(combo.dtype), who(device, threads), gflops(peak),
          escape_html(roof.compute->name));
    }
  }
  // Points, one per placed result and level it has bytes for.
  for (const auto& p : in.placements) {
    if (!p.placeable) continue;
    for (const auto& [level, ai] : p.intensity) {
      std::string tip = fmt::format("{}\n{} GFLOP/s, {} thread{}\nintensity {} FLOP/B ({})\n",
                                    p.name, gflops(p.achieved), p.threads, p.threads > 1 ? "s" : "",
                                    intensity(ai), level);
      if (p.attainable > 0)
        tip += fmt::format("attainable {} GFLOP/s, efficiency {}, bound: {}\n",
                           gflops(p.attainable), percent(p.efficiency), p.bound);
      tip += fmt::format("sources: FLOPs {}, bytes {}, time timed", to_string(p.flops_source),
                         to_string(p.bytes_source));
      if (p.above_roof)
        tip += "\nABOVE THE ROOF: the work model or the ceilings do not hold for this case";
      s += "<g class=\"point\">" +
           marker(p.dtype, ax.x(ai), ax.y(p.achieved), backend_colour(in, p.backend),
                  p.above_roof ? "#e03131" : "#212529") +
           "<title>" + escape_html(tip) + "</title></g>";
    }
  }
  s += "</g></svg>";
  return s;
}

}  // namespace ridgeline::reports
