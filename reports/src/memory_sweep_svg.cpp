// The machine section's memory sweep plot: bandwidth against working set (log2 x, log10 y),
// one line per sweep of the machine model, each measured level as a band over its plateau,
// and hwloc's cache sizes as dashed lines (red where the probe found them more than 2x
// off). It draws what the probe recorded; nothing is re-detected here.
#include "memory_sweep_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/reports/escape.hpp"

namespace ridgeline::reports {

namespace {

constexpr double kWidth = 720, kHeight = 380, kLeft = 70, kRight = 185, kTop = 20, kBottom = 330;

const char* colour_of(const std::string& kernel, int threads) {
  if (kernel == "read") return threads == 1 ? "#1c7ed6" : "#f76707";
  return threads == 1 ? "#37b24d" : "#ae3ec9";
}

std::string size_label(double bytes) {
  if (bytes >= 1 << 30) return fmt::format("{:g} GiB", bytes / (1 << 30));
  if (bytes >= 1 << 20) return fmt::format("{:g} MiB", bytes / (1 << 20));
  return fmt::format("{:g} KiB", bytes / 1024);
}

struct Axes {
  double x_lo, x_hi, y_lo, y_hi;  // log2 bytes, log10 bytes/s
  double x(double bytes) const {
    return kLeft + (std::log2(bytes) - x_lo) / (x_hi - x_lo) * (kWidth - kRight - kLeft);
  }
  double y(double rate) const {
    return kBottom - (std::log10(rate) - y_lo) / (y_hi - y_lo) * (kBottom - kTop);
  }
};

// Values a probe can produce (1 byte to 1 PiB, 1 kB/s to 10 PB/s); anything else is not
// drawn, so a hand-edited model cannot stretch the axes over hundreds of decades.
bool drawable(double bytes, double rate) {
  return usable(bytes) && usable(rate) && bytes <= 0x1p50 && rate >= 1e3 && rate <= 1e16;
}

}  // namespace

std::string memory_sweep_svg(const MachineModel& m) {
  double x_lo = 1e300, x_hi = -1e300, y_lo = 1e300, y_hi = -1e300;
  const auto extend = [&](double bytes, double rate) {
    x_lo = std::min(x_lo, std::log2(bytes));
    x_hi = std::max(x_hi, std::log2(bytes));
    y_lo = std::min(y_lo, std::log10(rate));
    y_hi = std::max(y_hi, std::log10(rate));
  };
  for (const MemorySweep& s : m.sweeps)
    for (std::size_t i = 0; i < s.working_set_bytes.size() && i < s.bytes_per_s.size(); ++i)
      if (drawable(static_cast<double>(s.working_set_bytes[i]), s.bytes_per_s[i]))
        extend(static_cast<double>(s.working_set_bytes[i]), s.bytes_per_s[i]);
  if (x_lo > x_hi) return "";  // nothing to draw
  const std::pair<const char*, std::int64_t> hwloc[] = {
      {"L1", m.l1d_bytes}, {"L2", m.l2_bytes}, {"L3", m.l3_bytes}};
  for (const auto& [name, bytes] : hwloc)
    if (bytes > 0 && std::log2(static_cast<double>(bytes)) <= x_hi + 4)  // beyond: not drawn
      x_hi = std::max(x_hi, std::log2(static_cast<double>(bytes)));
  const Axes a{std::floor(x_lo), std::max(std::ceil(x_hi), std::floor(x_lo) + 1), std::floor(y_lo),
               std::max(std::ceil(y_hi), std::floor(y_lo) + 1)};

  std::string s = fmt::format(
      R"svg(<svg class="memory-sweep" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}" font-size="11" font-family="sans-serif"><rect x="{2}" y="{3}" width="{4}" height="{5}" fill="#fff" stroke="#868e96"/>)svg",
      kWidth, kHeight, kLeft, kTop, kWidth - kRight - kLeft, kBottom - kTop);
  // Axes: every other power of two, every decade of bytes per second.
  for (double e = a.x_lo; e <= a.x_hi + 1e-9; e += 2)
    s += fmt::format(
        R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#e9ecef"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)svg",
        a.x(std::exp2(e)), kTop, kBottom, kBottom + 14, escape_html(size_label(std::exp2(e))));
  for (double d = a.y_lo; d <= a.y_hi + 1e-9; d += 1)
    s += fmt::format(
        R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#e9ecef"/><text x="{3}" y="{2:.1f}" text-anchor="end" dominant-baseline="middle">{4:g} GB/s</text>)svg",
        kLeft, kWidth - kRight, a.y(std::pow(10.0, d)), kLeft - 6, std::pow(10.0, d) / 1e9);
  s += fmt::format(
      R"svg(<text x="{0}" y="{1}" text-anchor="middle">working set (all arrays of all threads)</text>)svg",
      (kLeft + kWidth - kRight) / 2, kBottom + 32);

  // hwloc's sizes, red where a 1-thread level disagrees with them.
  for (const auto& [name, bytes] : hwloc) {
    if (bytes <= 0 || std::log2(static_cast<double>(bytes)) > a.x_hi) continue;
    bool off = false;
    for (const MeasuredLevel& l : m.levels) off |= l.name == name && l.threads == 1 && l.disagrees;
    const double x = a.x(static_cast<double>(bytes));
    s += fmt::format(
        R"svg(<line class="hwloc" x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="{3}" stroke-dasharray="4 3"/><text x="{4:.1f}" y="{5}" fill="{3}" transform="rotate(-90 {4:.1f} {5})" text-anchor="end">hwloc {6} {7}{8}</text>)svg",
        x, kTop, kBottom, off ? "#e03131" : "#868e96", x - 3, kTop + 4, name,
        escape_html(size_label(static_cast<double>(bytes))), escape_html(off ? " (> 2x off)" : ""));
  }

  // Levels as bands over their plateaus, then the sweeps, then the legend.
  for (const MeasuredLevel& l : m.levels) {
    const double first = static_cast<double>(l.first_bytes),
                 last = static_cast<double>(l.last_bytes);
    if (!drawable(first, l.bytes_per_s) || !drawable(last, l.bytes_per_s) || last < first) continue;
    const double y = a.y(l.bytes_per_s);
    if (y < kTop || y > kBottom) continue;
    s += fmt::format(
        R"svg(<line class="level" x1="{0:.1f}" x2="{1:.1f}" y1="{2:.1f}" y2="{2:.1f}" stroke="{3}" stroke-width="7" stroke-opacity="0.25"><title>{4}</title></line>)svg",
        a.x(first), a.x(last), y, colour_of(l.kernel, l.threads),
        escape_html(fmt::format("{} ({} {} thread{}): {} to {}, {:.1f} GB/s", l.name, l.kernel,
                                l.threads, l.threads > 1 ? "s" : "", size_label(first),
                                size_label(last), l.bytes_per_s / 1e9)));
    if (l.kernel == "read" && l.threads == 1)
      s += fmt::format(R"svg(<text x="{0:.1f}" y="{1:.1f}" fill="#1c7ed6">{2}</text>)svg",
                       a.x(first), y - 6, escape_html(l.name));
  }
  double legend_y = kTop + 10;
  for (const MemorySweep& sw : m.sweeps) {
    std::string points;
    for (std::size_t i = 0; i < sw.working_set_bytes.size() && i < sw.bytes_per_s.size(); ++i)
      if (drawable(static_cast<double>(sw.working_set_bytes[i]), sw.bytes_per_s[i]))
        points += fmt::format("{:.1f},{:.1f} ", a.x(static_cast<double>(sw.working_set_bytes[i])),
                              a.y(sw.bytes_per_s[i]));
    if (points.empty()) continue;
    const char* colour = colour_of(sw.kernel, sw.threads);
    s += fmt::format(
        R"svg(<polyline class="sweep" points="{0}" fill="none" stroke="{1}" stroke-width="1.5"/><line x1="{2}" x2="{3}" y1="{4}" y2="{4}" stroke="{1}" stroke-width="2"/><text x="{5}" y="{4}" dominant-baseline="middle">{6}</text>)svg",
        points, colour, kWidth - kRight + 10, kWidth - kRight + 28, legend_y, kWidth - kRight + 32,
        escape_html(fmt::format("{} {} thread{} ({})", sw.kernel, sw.threads,
                                sw.threads > 1 ? "s" : "", sw.isa)));
    legend_y += 16;
  }
  return s + "</svg>";
}

}  // namespace ridgeline::reports
