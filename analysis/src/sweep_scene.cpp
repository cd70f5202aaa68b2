// The memory sweep picture's geometry (sweep_scene.hpp), with any bandwidth marks.
#include "ridgeline/analysis/sweep_scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

namespace {

std::string size_label(double bytes) {
  if (bytes >= 1 << 30) return fmt::format("{:g} GiB", bytes / (1 << 30));
  if (bytes >= 1 << 20) return fmt::format("{:g} MiB", bytes / (1 << 20));
  return fmt::format("{:g} KiB", bytes / 1024);
}

// Values a probe can produce (1 byte to 1 PiB, 1 kB/s to 10 PB/s); anything else is not
// drawn, so a hand-edited model cannot stretch the axes over hundreds of decades.
bool drawable(double bytes, double rate) {
  return usable(bytes) && usable(rate) && bytes <= 0x1p50 && rate >= 1e3 && rate <= 1e16;
}

}  // namespace

std::optional<SweepScene> sweep_scene(const MachineModel& m,
                                      const std::vector<BandwidthMark>& marks) {
  double x_lo = 1e300, x_hi = -1e300, y_lo = 1e300, y_hi = -1e300;
  const auto widen = [&](double bytes, double rate) {
    x_lo = std::min(x_lo, std::log2(bytes));
    x_hi = std::max(x_hi, std::log2(bytes));
    y_lo = std::min(y_lo, std::log10(rate));
    y_hi = std::max(y_hi, std::log10(rate));
  };
  for (const MemorySweep& s : m.sweeps)
    for (std::size_t i = 0; i < s.working_set_bytes.size() && i < s.bytes_per_s.size(); ++i)
      if (drawable(static_cast<double>(s.working_set_bytes[i]), s.bytes_per_s[i]))
        widen(static_cast<double>(s.working_set_bytes[i]), s.bytes_per_s[i]);
  if (x_lo > x_hi) return std::nullopt;  // no sweep: nothing to set the marks beside
  for (const BandwidthMark& k : marks)
    if (drawable(k.working_set_bytes, k.bytes_per_s)) widen(k.working_set_bytes, k.bytes_per_s);
  const std::pair<std::string_view, std::int64_t> hwloc[] = {
      {display_name(MemoryLevel::l1), m.l1d_bytes},
      {display_name(MemoryLevel::l2), m.l2_bytes},
      {display_name(MemoryLevel::l3), m.l3_bytes}};
  for (const auto& [name, bytes] : hwloc)
    if (bytes > 0 && std::log2(static_cast<double>(bytes)) <= x_hi + 4)  // beyond: not drawn
      x_hi = std::max(x_hi, std::log2(static_cast<double>(bytes)));
  x_lo = std::floor(x_lo);
  x_hi = std::max(std::ceil(x_hi), x_lo + 1);
  y_lo = std::floor(y_lo);
  y_hi = std::max(std::ceil(y_hi), y_lo + 1);

  SweepScene sc;
  const auto px = [&](double bytes) {
    return sc.left + (std::log2(bytes) - x_lo) / (x_hi - x_lo) * (sc.right - sc.left);
  };
  const auto py = [&](double rate) {
    return sc.bottom - (std::log10(rate) - y_lo) / (y_hi - y_lo) * (sc.bottom - sc.top);
  };
  // Every other power of two, every decade of bytes per second.
  for (double e = x_lo; e <= x_hi + 1e-9; e += 2)
    sc.x_ticks.push_back({px(std::exp2(e)), size_label(std::exp2(e))});
  for (double d = y_lo; d <= y_hi + 1e-9; d += 1)
    sc.y_ticks.push_back(
        {py(std::pow(10.0, d)), fmt::format("{:g} GB/s", std::pow(10.0, d) / 1e9)});
  for (const auto& [name, bytes] : hwloc) {
    if (bytes <= 0 || std::log2(static_cast<double>(bytes)) > x_hi) continue;
    bool off = false;
    for (const MeasuredLevel& l : m.levels) off |= l.name == name && l.threads == 1 && l.disagrees;
    sc.hwloc.push_back({std::string(name), px(static_cast<double>(bytes)), off,
                        fmt::format("hwloc {} {}{}", name, size_label(static_cast<double>(bytes)),
                                    off ? " (replaced)" : "")});
  }
  for (const MeasuredLevel& l : m.levels) {
    const double first = static_cast<double>(l.first_bytes),
                 last = static_cast<double>(l.last_bytes);
    if (!drawable(first, l.bytes_per_s) || !drawable(last, l.bytes_per_s) || last < first) continue;
    const double y = py(l.bytes_per_s);
    if (y < sc.top || y > sc.bottom) continue;
    sc.bands.push_back({l.name, l.kernel, l.threads, px(first), px(last), y,
                        fmt::format("{} ({} {} thread{}): {} to {}, {:.1f} GB/s", l.name, l.kernel,
                                    l.threads, l.threads > 1 ? "s" : "", size_label(first),
                                    size_label(last), l.bytes_per_s / 1e9),
                        l.kernel == "read" && l.threads == 1});
  }
  double legend_y = sc.top + 10;
  for (const MemorySweep& sw : m.sweeps) {
    SweepScene::Line line{sw.kernel, sw.isa, sw.threads, {}, "", legend_y};
    for (std::size_t i = 0; i < sw.working_set_bytes.size() && i < sw.bytes_per_s.size(); ++i)
      if (drawable(static_cast<double>(sw.working_set_bytes[i]), sw.bytes_per_s[i]))
        line.points.push_back(
            {px(static_cast<double>(sw.working_set_bytes[i])), py(sw.bytes_per_s[i])});
    if (line.points.empty()) continue;
    line.legend = fmt::format("{} {} thread{} ({})", sw.kernel, sw.threads,
                              sw.threads > 1 ? "s" : "", sw.isa);
    sc.sweeps.push_back(std::move(line));
    legend_y += 16;
  }
  // Labels start 7 px right of the mark, about 6 px a character and 11 px high; one that
  // would overlap an earlier one is left to the mark's tip.
  const auto overlaps = [](const SweepScene::Mark& a, const SweepScene::Mark& b) {
    return std::abs(a.y - b.y) < 11 && a.x < b.x + 6.0 * static_cast<double>(b.label.size()) &&
           b.x < a.x + 6.0 * static_cast<double>(a.label.size());
  };
  for (const BandwidthMark& k : marks) {
    if (!drawable(k.working_set_bytes, k.bytes_per_s)) continue;
    SweepScene::Mark mark{k.label, k.group, px(k.working_set_bytes), py(k.bytes_per_s), k.tip};
    mark.labelled = std::none_of(sc.marks.begin(), sc.marks.end(), [&](const auto& earlier) {
      return earlier.labelled && overlaps(earlier, mark);
    });
    sc.marks.push_back(std::move(mark));
    if (std::none_of(sc.mark_groups.begin(), sc.mark_groups.end(),
                     [&](const auto& g) { return g.name == k.group; })) {
      sc.mark_groups.push_back({k.group, legend_y});
      legend_y += 16;
    }
  }
  return sc;
}

}  // namespace ridgeline
