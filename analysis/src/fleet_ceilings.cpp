// The members' ceilings against the fleet's median (analyse_fleet's second job).
#include <fmt/format.h>

#include <cmath>
#include <map>

#include "fleet_parts.hpp"
#include "ridgeline/analysis/memory_levels.hpp"

namespace ridgeline::detail {

namespace {

// Each member's ceilings by a name that says what was measured and how wide.
std::vector<std::pair<std::string, std::pair<std::string, double>>> ceilings_of(
    const MachineModel& m) {
  std::vector<std::pair<std::string, std::pair<std::string, double>>> out;
  const auto threads = [](int n) { return fmt::format("{} thread{}", n, n == 1 ? "" : "s"); };
  for (const auto& c : m.memory)
    if (c.bytes_per_s > 0)
      out.push_back({c.device == Device::gpu
                         ? fmt::format("GPU {} {}", c.level, c.kernel)
                         : fmt::format("{} {}, {}", c.level, c.kernel, threads(c.threads)),
                     {"B/s", c.bytes_per_s}});
  for (const auto& c : m.compute)
    if (c.per_second > 0)
      out.push_back({c.device == Device::gpu ? "GPU " + c.name
                                             : fmt::format("{}, {}", c.name, threads(c.threads)),
                     {c.unit, c.per_second}});
  return out;
}

}  // namespace

void compare_ceilings(const std::vector<FleetMember>& members, Fleet& fleet) {
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<double>> values;  // [ceiling][member], 0: none
  for (std::size_t m = 0; m < members.size(); ++m) {
    if (!members[m].machine) continue;
    for (const auto& [name, measured] : ceilings_of(*members[m].machine)) {
      auto [it, added] = index.emplace(name, fleet.ceilings.size());
      if (added) {
        fleet.ceilings.push_back({name, measured.first, 0, 0});
        values.emplace_back(members.size(), 0.0);
      }
      if (values[it->second][m] == 0) values[it->second][m] = measured.second;
    }
  }
  for (std::size_t c = 0; c < fleet.ceilings.size(); ++c) {
    std::vector<double> present;
    for (double v : values[c])
      if (v > 0) present.push_back(v);
    fleet.ceilings[c].nodes = static_cast<int>(present.size());
    fleet.ceilings[c].median = median_of(present);
    for (std::size_t m = 0; m < members.size(); ++m) {
      FleetNode& node = fleet.nodes[m];
      node.ceilings.push_back(
          values[c][m] > 0 && present.size() > 1 ? values[c][m] / fleet.ceilings[c].median : 0.0);
      if (node.ceilings.back() > 0 &&
          std::abs(node.ceilings.back() - 1) > fleet.settings.ceiling_margin)
        node.ceilings_out.push_back(c);
    }
  }
}

}  // namespace ridgeline::detail
