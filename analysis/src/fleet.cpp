#include "ridgeline/analysis/fleet.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "fleet_parts.hpp"
#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/analysis/rank_tests.hpp"
#include "ridgeline/analysis/side_by_side.hpp"
#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

constexpr Spelling<FleetVerdict> kFleetVerdicts[] = {
    {FleetVerdict::slower, "slower", {}},     {FleetVerdict::faster, "faster", {}},
    {FleetVerdict::same, "same", {}},         {FleetVerdict::inconclusive, "inconclusive", {}},
    {FleetVerdict::untested, "untested", {}},
};
static_assert(spelled_in_order(kFleetVerdicts, FleetVerdict::untested));

// Each case once, in the order the members first name it; each member's samples of it.
struct CaseTable {
  std::vector<FleetCase> cases;
  std::vector<std::vector<const FleetCaseSamples*>> samples;  // [case][member], null: none
};

CaseTable case_table(const std::vector<FleetMember>& members) {
  CaseTable t;
  std::map<CaseKey, std::size_t> index;
  for (std::size_t m = 0; m < members.size(); ++m)
    for (const auto& c : members[m].cases) {
      auto [it, added] = index.emplace(c.key, t.cases.size());
      if (added) {
        t.cases.push_back({c.key, c.name, "", 0, 0});
        t.samples.emplace_back(members.size(), nullptr);
      }
      auto& slot = t.samples[it->second][m];
      if (!slot) slot = &c;  // a member's first row of a key, as compare matches them
    }
  return t;
}

// The logarithms of a member's usable repetitions: ratios of times become shifts.
std::vector<double> log_seconds(const FleetCaseSamples& s) {
  std::vector<double> out;
  for (double v : s.seconds)
    if (std::isfinite(v) && v > 0) out.push_back(std::log(v));
  return out;
}

// Every member's test of one case against the rest; untested cells say why.
void test_case(const std::vector<const FleetCaseSamples*>& row, const FleetSettings& settings,
               FleetCase& kase, std::vector<FleetNode>& nodes, std::size_t c) {
  std::vector<std::vector<double>> logs(row.size());
  std::vector<double> all;
  std::map<std::string, int> bounds;
  for (std::size_t m = 0; m < row.size(); ++m) {
    FleetCell& cell = nodes[m].cells[c];
    if (!row[m]) {
      cell.reason = "not in this member's runs";
      continue;
    }
    if (!row[m]->passed) {
      cell.reason = "it did not pass validation here";
      continue;
    }
    logs[m] = log_seconds(*row[m]);
    cell.repetitions = static_cast<int>(logs[m].size());
    if (logs[m].empty()) {
      cell.reason = "no timed repetition";
      continue;
    }
    all.insert(all.end(), logs[m].begin(), logs[m].end());
    ++kase.nodes;
    ++bounds[row[m]->bound];
  }
  if (kase.nodes > 0)
    for (std::size_t m = 0; m < row.size(); ++m)
      if (row[m] && !row[m]->passed) {
        FleetCell& cell = nodes[m].cells[c];
        cell.failed = true;
        cell.reason = fmt::format("it failed validation here where {} other member{} passed it",
                                  kase.nodes, kase.nodes == 1 ? "" : "s");
      }
  for (const auto& [bound, n] : bounds)
    if (n > bounds[kase.bound]) kase.bound = bound;
  if (!all.empty()) kase.median_seconds = std::exp(median_of(all));
  if (kase.nodes < 2) {
    for (std::size_t m = 0; m < row.size(); ++m)
      if (!logs[m].empty()) nodes[m].cells[c].reason = "no other member ran it";
    return;
  }
  const RankPool pool(std::move(all));
  for (std::size_t m = 0; m < row.size(); ++m) {
    if (logs[m].empty()) continue;
    FleetCell& cell = nodes[m].cells[c];
    const MannWhitney u = pool.test(logs[m]);
    const ShiftEstimate s = pool.shift(logs[m], settings.alpha);
    cell.p = u.p;
    cell.rest = static_cast<int>(pool.size() - logs[m].size());
    cell.ratio = std::exp(s.estimate);
    cell.low = std::exp(s.low);
    cell.high = std::exp(s.high);
    cell.confidence = s.confidence;
    cell.verdict = FleetVerdict::inconclusive;  // judged after Holm
  }
}

FleetVerdict judge_cell(const FleetCell& cell, const FleetSettings& s) {
  const bool significant = cell.p_holm < s.alpha;
  if (significant && cell.low > 1 + s.margin) return FleetVerdict::slower;
  if (significant && cell.high < 1 - s.margin) return FleetVerdict::faster;
  if (cell.low >= 1 - s.margin && cell.high <= 1 + s.margin) return FleetVerdict::same;
  return FleetVerdict::inconclusive;
}

}  // namespace

std::string_view to_string(FleetVerdict verdict) {
  return spelling_of(kFleetVerdicts, verdict).json;
}

Fleet analyse_fleet(const std::vector<FleetMember>& members, const FleetSettings& settings) {
  Fleet fleet;
  fleet.settings = settings;
  fleet.member_kind = settings.by_rank ? "rank" : "node";
  CaseTable table = case_table(members);
  fleet.cases = std::move(table.cases);
  for (const auto& m : members) {
    FleetNode node;
    node.name = m.name;
    node.sources = m.sources;
    node.ranks = m.ranks;
    node.cells.resize(fleet.cases.size());
    fleet.nodes.push_back(std::move(node));
  }
  // Each case's tests touch only its own column of cells: side by side.
  for (const auto& e : side_by_side(fleet.cases.size(), [&](std::size_t c) {
         test_case(table.samples[c], settings, fleet.cases[c], fleet.nodes, c);
       }))
    if (e) std::rethrow_exception(e);

  std::vector<double> p;
  std::vector<FleetCell*> tested;
  for (auto& node : fleet.nodes)
    for (auto& cell : node.cells)
      if (cell.verdict != FleetVerdict::untested) {
        p.push_back(cell.p);
        tested.push_back(&cell);
      }
  const std::vector<double> adjusted = holm_adjust(p);
  for (std::size_t i = 0; i < tested.size(); ++i) {
    tested[i]->p_holm = adjusted[i];
    tested[i]->verdict = judge_cell(*tested[i], settings);
  }
  fleet.tested = static_cast<int>(tested.size());
  detail::compare_ceilings(members, fleet);

  for (auto& node : fleet.nodes) {
    for (const auto& cell : node.cells) {
      int* counts[] = {&node.slower, &node.faster, &node.same, &node.inconclusive, &node.untested};
      ++*counts[static_cast<int>(cell.verdict)];
      node.failed += cell.failed;
      if (cell.verdict == FleetVerdict::slower || cell.verdict == FleetVerdict::faster)
        node.departure = std::max(node.departure, std::abs(std::log(cell.ratio)));
    }
    for (std::size_t c : node.ceilings_out)
      node.departure = std::max(node.departure, std::abs(std::log(node.ceilings[c])));
    node.out_of_family =
        node.failed > 0 || node.slower + node.faster > 0 || !node.ceilings_out.empty();
    fleet.out_of_family += node.out_of_family;
    detail::summarise(fleet, node);
  }
  std::stable_sort(fleet.nodes.begin(), fleet.nodes.end(), [](const auto& a, const auto& b) {
    if (a.out_of_family != b.out_of_family) return a.out_of_family;
    if (a.failed != b.failed) return a.failed > b.failed;  // wrong answers before slow ones
    if (a.departure != b.departure) return a.departure > b.departure;
    return a.name < b.name;
  });

  // Whether the repetitions could find anything: the smallest p the thinnest test can reach
  // (fully separated samples), beside the level Holm needs of the first test.
  const FleetCell* thinnest = nullptr;
  for (const auto& node : fleet.nodes)
    for (const auto& cell : node.cells)
      if (cell.verdict != FleetVerdict::untested &&
          (!thinnest || std::pair{cell.repetitions, cell.rest} <
                            std::pair{thinnest->repetitions, thinnest->rest}))
        thinnest = &cell;
  if (thinnest) {
    const double smallest = smallest_two_sided_p(thinnest->repetitions, thinnest->rest);
    fleet.underpowered = smallest * fleet.tested >= settings.alpha;
    if (fleet.underpowered)
      fleet.notes.push_back(fmt::format(
          "{} repetitions against {} can reach p = {:.2g} at best, and Holm over {} tests needs "
          "below {:.2g}: no case can be found out of family; run more repetitions",
          thinnest->repetitions, thinnest->rest, smallest, fleet.tested,
          settings.alpha / fleet.tested));
  }
  return fleet;
}

}  // namespace ridgeline
