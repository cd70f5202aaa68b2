// Each node's summary line (analyse_fleet's last job).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "fleet_parts.hpp"

namespace ridgeline::detail {

namespace {

std::string change_text(double ratio) {
  return fmt::format("{:+.0f}%", (ratio - 1) * 100);
}

// "DRAM-bound 3 of 20 (+8 … +12%)": the node's cases of `verdict` grouped by bound; "+8 …
// +12%" alone where no case could be placed (no machine model).
std::string grouped(const Fleet& fleet, const FleetNode& node, FleetVerdict verdict) {
  std::map<std::string, std::pair<int, int>> groups;  // bound -> (with the verdict, tested)
  std::map<std::string, std::pair<double, double>> range;
  for (std::size_t c = 0; c < fleet.cases.size(); ++c) {
    const FleetCell& cell = node.cells[c];
    if (cell.verdict == FleetVerdict::untested) continue;
    const std::string& bound = fleet.cases[c].bound;
    ++groups[bound].second;
    if (cell.verdict != verdict) continue;
    auto [it, added] = range.emplace(bound, std::pair{cell.ratio, cell.ratio});
    it->second.first = std::min(it->second.first, cell.ratio);
    it->second.second = std::max(it->second.second, cell.ratio);
    ++groups[bound].first;
  }
  std::string out;
  for (const auto& [bound, r] : range) {
    const auto [lo, hi] = r;
    const std::string span =
        lo == hi ? change_text(lo) : fmt::format("{} … {}", change_text(lo), change_text(hi));
    out += (out.empty() ? "" : ", ") +
           (bound.empty() ? fmt::format("{} of unknown bound ({})", groups[bound].first, span)
                          : fmt::format("{}-bound {} of {} ({})", bound, groups[bound].first,
                                        groups[bound].second, span));
  }
  return out;
}

}  // namespace

void summarise(const Fleet& fleet, FleetNode& node) {
  const int tested = node.slower + node.faster + node.same + node.inconclusive;
  std::vector<std::string> parts;
  if (node.failed) {
    std::vector<std::string> names;
    for (std::size_t c = 0; c < node.cells.size(); ++c)
      if (node.cells[c].failed) names.push_back(fleet.cases[c].name);
    parts.push_back(
        fmt::format("{} case{} failed validation here and passed elsewhere: {}{}", node.failed,
                    node.failed == 1 ? "" : "s", names.front(),
                    names.size() > 1 ? fmt::format(" (and {} more)", names.size() - 1) : ""));
  }
  if (node.slower)
    parts.push_back(fmt::format("{} of {} cases slower: {}", node.slower, tested,
                                grouped(fleet, node, FleetVerdict::slower)));
  if (node.faster)
    parts.push_back(fmt::format("{} of {} cases faster: {}", node.faster, tested,
                                grouped(fleet, node, FleetVerdict::faster)));
  if (node.ceilings_out.size() <= 2) {
    for (std::size_t c : node.ceilings_out)
      parts.push_back(fmt::format("{} {} against the fleet's median", fleet.ceilings[c].name,
                                  change_text(node.ceilings[c])));
  } else {  // many (a slow memory moves every level's ceilings): how many, how far, the first
    double lo = 0, hi = 0;
    for (std::size_t c : node.ceilings_out) {
      lo = lo == 0 ? node.ceilings[c] : std::min(lo, node.ceilings[c]);
      hi = std::max(hi, node.ceilings[c]);
    }
    parts.push_back(fmt::format(
        "{} ceilings out, {} against the fleet's median ({}, {}, …)", node.ceilings_out.size(),
        change_text(lo) == change_text(hi) ? change_text(lo)
                                           : change_text(lo) + " … " + change_text(hi),
        fleet.ceilings[node.ceilings_out[0]].name, fleet.ceilings[node.ceilings_out[1]].name));
  }
  if (parts.empty())
    parts.push_back(fmt::format("in family: {} of {} cases the same, {} inconclusive", node.same,
                                tested, node.inconclusive));
  else if (node.slower + node.faster < tested)
    parts.push_back(fmt::format("{} the same, {} inconclusive", node.same, node.inconclusive));
  for (const auto& p : parts) node.summary += (node.summary.empty() ? "" : "; ") + p;
}

}  // namespace ridgeline::detail
