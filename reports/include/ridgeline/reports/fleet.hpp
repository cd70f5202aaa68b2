#pragma once
// The printers of a fleet (analysis/fleet.hpp): the terminal lines, Markdown, JSON, JUnit
// (one testcase per node) and the HTML page with its node × case heatmap. They format the
// model; every ratio and verdict comes from it (docs/cluster.md, "ridgeline fleet").
#include <string>
#include <vector>

#include "ridgeline/analysis/fleet.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline {

struct FleetView {
  const Fleet& fleet;
  std::vector<std::string> files;  // as the user named them
  bool all = false;                // the terminal lists the members in family too
  // The members read, for their machine models (the page's roofs); may be empty.
  const std::vector<FleetMember>* members = nullptr;
  const FleetMember* member(const std::string& name) const {
    if (members)
      for (const FleetMember& m : *members)
        if (m.name == name) return &m;
    return nullptr;
  }
};

// One row per member, out of family first: member, verdict, cases slower / faster / same /
// inconclusive / untested, its farthest case (ratio and interval), its ceilings out, the line.
Table fleet_member_table(const Fleet& fleet);
// One row per case: case, bound, members that ran it, median time, members slower / faster.
Table fleet_case_table(const Fleet& fleet);
// One row per probed ceiling: ceiling, members, the fleet's median, the lowest and highest
// member over it.
Table fleet_ceiling_table(const Fleet& fleet);

std::string fleet_text(const FleetView& view);
std::string fleet_markdown(const FleetView& view);
std::string fleet_json(const FleetView& view);
std::string fleet_junit(const FleetView& view);
std::string fleet_html(const FleetView& view);

}  // namespace ridgeline
