// The roofs a roofline scene draws (scene_roofs.hpp).
#include "scene_roofs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <tuple>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline::detail {

namespace {

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

}  // namespace ridgeline::detail
