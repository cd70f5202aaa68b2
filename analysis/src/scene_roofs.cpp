// The roofs a roofline scene draws (scene_roofs.hpp).
#include "scene_roofs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <tuple>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline::detail {

namespace {

// A number as a label shows it: fixed below a million, else with an exponent.
std::string fixed(double v, int decimals) {
  return std::fabs(v) < 1e6 ? fmt::format("{:.{}f}", v, decimals) : fmt::format("{:.4g}", v);
}

constexpr std::size_t kMaxGroups = 4;  // thread counts (and the GPU) with roofs drawn
constexpr std::size_t kMaxPeaks = 6;   // compute roofs per group
constexpr std::size_t kMaxLevels = 8;  // memory roofs per group
constexpr std::size_t kMaxCaps = 3;    // the GPU's power-cap roofs (one per input pattern)

}  // namespace

std::string who(Device device, int threads) {
  return device == Device::gpu ? std::string(display_name(device)) : std::to_string(threads) + "t";
}

std::vector<Group> roof_groups(const std::vector<RooflinePlacement>& placements,
                               const Machines& machines, std::size_t k, Omissions& omit) {
  const MachineModel& machine = *machines.list[k].machine;
  // device, threads, dtype, unit: each point's own unit's roof, and its dtype's highest (the
  // fastest unit's) beside it
  std::set<std::tuple<Device, int, std::string, std::optional<ComputeUnit>>> wanted;
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (placements[i].placeable && machines.under(i, k)) {
      const RooflinePlacement& p = placements[i];
      wanted.insert({p.device, p.threads, p.dtype, p.compute_unit});
      wanted.insert({p.device, p.threads, p.dtype, std::nullopt});
    }
  if (wanted.empty())
    for (const auto& c : machine.compute)
      if (c.dtype == "f32" || c.dtype == "f64")
        wanted.insert({c.device, c.threads, c.dtype, std::nullopt});
  std::map<std::pair<Device, int>, Group> groups;
  for (const auto& [device, threads, dtype, unit] : wanted) {
    const Roof roof = roof_for(machine, dtype, threads, device, unit);
    for (const auto& n : roof.notes)
      if (n.kind == NoteKind::ceiling) omit("a ceiling of the machine model", n.text);
    Group& g = groups[{device, roof.threads}];
    g.device = device;
    g.threads = roof.threads;
    if (roof.compute && std::none_of(g.peaks.begin(), g.peaks.end(), [&](const ComputeCeiling& c) {
          return c.name == roof.compute->name;
        }))
      g.peaks.push_back(*roof.compute);
    for (const auto& [level, c] : roof.memory) g.memory.emplace(level, c);
  }
  // The power caps of the dtypes and patterns placed on the GPU, where below the nominal roof.
  if (k == 0 && machines.power_caps)
    for (auto& [key, g] : groups) {
      if (g.device != Device::gpu) continue;
      for (const PowerCapRoof& cap : *machines.power_caps) {
        const bool placed = std::any_of(placements.begin(), placements.end(), [&](const auto& p) {
          return p.placeable && p.device == Device::gpu && p.dtype == cap.dtype &&
                 p.pattern == cap.pattern;
        });
        const bool below = std::any_of(g.peaks.begin(), g.peaks.end(), [&](const auto& peak) {
          return peak.dtype == cap.dtype && cap.flop_rate < peak.per_second;
        });
        if (placed && below && usable(cap.flop_rate)) g.caps.push_back(cap);
      }
      // The fastest and slowest patterns first: the span the data makes at the cap.
      std::sort(g.caps.begin(), g.caps.end(),
                [](const auto& a, const auto& b) { return a.flop_rate > b.flop_rate; });
      if (g.caps.size() > kMaxCaps) {
        std::rotate(g.caps.begin() + 1, g.caps.end() - 1, g.caps.end());
        for (std::size_t i = kMaxCaps; i < g.caps.size(); ++i)
          omit(fmt::format("power-cap roof {} {} inputs", g.caps[i].dtype, g.caps[i].pattern),
               fmt::format("not drawn: at most {} power-cap roofs on one plot (the table lists "
                           "every one)",
                           kMaxCaps));
        g.caps.resize(kMaxCaps);
      }
    }
  std::vector<Group> out;
  for (auto& [key, g] : groups) {
    const std::string name = machines.who(k, g.device, g.threads);
    if (out.size() == kMaxGroups) {
      omit("roofs " + name,
           fmt::format("not drawn: at most {} thread counts have roofs on one plot", kMaxGroups));
      continue;
    }
    std::sort(g.peaks.begin(), g.peaks.end(),
              [](const auto& a, const auto& b) { return a.per_second > b.per_second; });
    for (std::size_t i = kMaxPeaks; i < g.peaks.size(); ++i)
      omit("compute roof " + g.peaks[i].name + " " + name,
           fmt::format("not drawn: at most {} compute roofs per thread count", kMaxPeaks));
    if (g.peaks.size() > kMaxPeaks) g.peaks.resize(kMaxPeaks);
    while (g.memory.size() > kMaxLevels) {
      auto last = std::prev(g.memory.end());
      omit("memory roof " + last->first + " " + name,
           fmt::format("not drawn: at most {} memory levels per thread count", kMaxLevels));
      g.memory.erase(last);
    }
    if (g.peaks.empty())
      omit("compute roofs " + name, "the machine model has no usable compute peak here");
    out.push_back(std::move(g));
  }
  return out;
}

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

}  // namespace ridgeline::detail
