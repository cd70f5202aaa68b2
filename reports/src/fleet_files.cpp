// The fleet as JSON and as JUnit XML (fleet.hpp): one testcase per member, a failure where
// it is out of family, for a cluster's acceptance pipeline.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/fleet.hpp"

namespace ridgeline {

namespace {

nlohmann::json cell_json(const FleetCell& c) {
  nlohmann::json j = {
      {"verdict", to_string(c.verdict)}, {"repetitions", c.repetitions}, {"rest", c.rest}};
  if (c.verdict == FleetVerdict::untested) {
    j["reason"] = c.reason;
    if (c.failed) j["failed"] = true;
  } else
    j.update({{"ratio", c.ratio},
              {"interval", {c.low, c.high}},
              {"confidence", c.confidence},
              {"p", c.p},
              {"p_holm", c.p_holm}});
  return j;
}

}  // namespace

std::string fleet_json(const FleetView& view) {
  const Fleet& f = view.fleet;
  nlohmann::json cases = nlohmann::json::array(), ceilings = nlohmann::json::array(),
                 members = nlohmann::json::array();
  for (const auto& c : f.cases)
    cases.push_back({{"name", c.name},
                     {"key", key_fields(c.key)},
                     {"bound", c.bound},
                     {"members", c.nodes},
                     {"median_seconds", c.median_seconds}});
  for (const auto& c : f.ceilings)
    ceilings.push_back(
        {{"name", c.name}, {"unit", c.unit}, {"median", c.median}, {"members", c.nodes}});
  for (const auto& n : f.nodes) {
    nlohmann::json cells = nlohmann::json::array(), ratios = nlohmann::json::array();
    for (const auto& c : n.cells) cells.push_back(cell_json(c));
    for (double r : n.ceilings) ratios.push_back(r > 0 ? nlohmann::json(r) : nlohmann::json());
    members.push_back({{"name", n.name},
                       {"sources", n.sources},
                       {"ranks", n.ranks},
                       {"out_of_family", n.out_of_family},
                       {"departure", n.departure},
                       {"slower", n.slower},
                       {"faster", n.faster},
                       {"same", n.same},
                       {"inconclusive", n.inconclusive},
                       {"untested", n.untested},
                       {"failed", n.failed},
                       {"summary", n.summary},
                       {"ceilings", ratios},
                       {"cases", cells}});
  }
  const nlohmann::json doc = {{"files", view.files},
                              {"member_kind", f.member_kind},
                              {"margin", f.settings.margin},
                              {"alpha", f.settings.alpha},
                              {"ceiling_margin", f.settings.ceiling_margin},
                              {"tested", f.tested},
                              {"out_of_family", f.out_of_family},
                              {"underpowered", f.underpowered},
                              {"notes", f.notes},
                              {"cases", cases},
                              {"ceilings", ceilings},
                              {"members", members}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string fleet_junit(const FleetView& view) {
  const Fleet& f = view.fleet;
  std::string body;
  for (const auto& n : f.nodes) {
    body += fmt::format("    <testcase classname=\"ridgeline.fleet.{}\" name=\"{}\">\n",
                        f.member_kind, escape_html(n.name));
    body += fmt::format(
        "      <properties>\n        <property name=\"slower\" value=\"{}\"/>\n        <property "
        "name=\"faster\" value=\"{}\"/>\n        <property name=\"same\" value=\"{}\"/>\n        "
        "<property name=\"inconclusive\" value=\"{}\"/>\n      </properties>\n",
        n.slower, n.faster, n.same, n.inconclusive);
    if (n.out_of_family)
      body += fmt::format("      <failure type=\"out of family\" message=\"{}\"/>\n",
                          escape_html(n.summary));
    else if (f.underpowered)  // in family by no test that could have found otherwise
      body += fmt::format("      <skipped message=\"{}\"/>\n", escape_html(f.notes.back()));
    body += "    </testcase>\n";
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"ridgeline "
      "fleet\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n{}  </testsuite>\n</testsuites>\n",
      f.nodes.size(), f.out_of_family,
      f.underpowered ? f.nodes.size() - static_cast<std::size_t>(f.out_of_family) : 0, body);
}

}  // namespace ridgeline
