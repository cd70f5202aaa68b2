// `ridgeline report BASE NEW`: the comparison as one HTML page. It formats the comparison
// (analysis/run_comparison.hpp) and the two runs' placements; it decides nothing.
#include <fmt/format.h>

#include <map>

#include "html_cells.hpp"
#include "html_page.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/comparison.hpp"
#include "ridgeline/reports/comparison_rows.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "table_cells.hpp"

namespace ridgeline {

using namespace reports;
using namespace comparison_rows;

namespace {

constexpr const char* kComparisonStyle = R"(
#verdicts td.case{word-break:break-all;min-width:260px}
.gate-failed{color:#e03131;font-weight:600}.gate-passed{color:#2f9e44;font-weight:600}
)";

std::string run_line(const char* side, const ReportInput& in) {
  const RunContext& c = in.run.context;
  return fmt::format("<p class=\"meta\">{}: {} — {} on {}{}</p>", side, escape_html(in.run_origin),
                     escape_html(c.date), escape_html(c.host_name),
                     c.interrupted ? " — <b>the run was interrupted</b>" : "");
}

// What each run's input and load said, and how the runs were compared.
std::string notes_html(const ReportInput& base, const ReportInput& head, const RunComparison& cmp) {
  std::string s;
  for (const auto& [side, in] : {std::pair{"base", &base}, std::pair{"new", &head}})
    for (const auto& note : in->run.notes)
      s += fmt::format("<p class=\"meta input-note\">Reading the {} run: {}</p>", side,
                       escape_html(note));
  // cmp.notes carries each run's busy-machine warning already.
  for (const auto& n : cmp.notes)
    s += "<p class=\"meta comparison-note\">" + escape_html(n) + "</p>";
  return s;
}

TableCell rate_cell(const RooflinePlacement* p) {
  return p && p->placeable ? number(p->achieved, gflops(p->achieved)) : text("—");
}

// The verdict table (comparison_rows.hpp) with each run's rate beside the reasons.
// `placements`: both runs', the base run's first; `where`: each case's among them.
std::string verdicts_html(const std::vector<RooflinePlacement>& placements,
                          const std::vector<CasePlacements>& where, const RunComparison& cmp) {
  const auto rate = [&](const std::optional<std::size_t>& i) {
    return i ? rate_cell(&placements[*i]) : text("—");
  };
  const std::vector<const CaseComparison*> rows = by_effect(cmp);
  Table t = verdict_table(rows);
  t.headers.insert(t.headers.begin() + kWhy, {"base GFLOP/s", "new GFLOP/s"});
  std::string s = "<h2>Verdicts</h2><table class=\"sortable\" id=\"verdicts\"><thead><tr>";
  for (const auto& h : t.headers) s += "<th>" + escape_html(h) + "</th>";
  s += "</tr></thead><tbody>";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const CasePlacements& at = where[static_cast<std::size_t>(rows[r] - cmp.cases.data())];
    std::vector<TableCell>& row = t.rows[r];
    row.insert(row.begin() + kWhy, {rate(at.base), rate(at.head)});
    s += fmt::format("<tr data-verdict=\"{}\">", to_string(rows[r]->verdict));
    for (std::size_t c = 0; c < row.size(); ++c)
      s += c == kCase ? "<td class=\"case\">" + escape_html(row[c].text) + "</td>"
                      : table_cell(row[c]);
    s += "</tr>";
  }
  s += "</tbody></table>";
  if (!cmp.added.empty() || !cmp.removed.empty()) {
    s += "<h2>Cases in one run only</h2><table id=\"one-run\"><thead><tr><th>case</th>"
         "<th>only in</th></tr></thead><tbody>";
    for (const auto& n : cmp.added) s += "<tr>" + cell(n) + cell("the new run (added)") + "</tr>";
    for (const auto& n : cmp.removed)
      s += "<tr>" + cell(n) + cell("the base run (removed)") + "</tr>";
    s += "</tbody></table>";
  }
  return s;
}

// What an arrow's and a point's tooltip say of the case's comparison.
std::vector<std::string> verdict_lines(const CaseComparison& c) {
  std::vector<std::string> lines{fmt::format("verdict: {}", to_string(c.verdict))};
  if (c.tested)
    lines.push_back(
        fmt::format("new ÷ base {} ({}), p (Holm) {}", ratio(c), interval(c), p_holm(c)));
  if (!c.reason.empty()) lines.push_back(c.reason);
  return lines;
}

// One row per run: where it ran and where the roofs came from.
std::string machines_table(const ReportInput& base, const ReportInput& head) {
  std::string s =
      "<h2>Machines</h2><table id=\"machines\"><thead><tr><th>run</th><th>host</th><th>CPU</th>"
      "<th>fingerprint</th><th>ceilings from</th></tr></thead><tbody>";
  for (const auto& [side, in] : {std::pair{"base", &base}, std::pair{"new", &head}}) {
    const MachineModel* m = in->machine ? &*in->machine : nullptr;
    s += "<tr>" + cell(side) + cell(in->run.context.host_name) + cell(m ? m->cpu_model : "—") +
         cell(m ? m->fingerprint : "—") + cell(in->machine_origin) + "</tr>";
  }
  return s + "</tbody></table>";
}

}  // namespace

std::string runs_picture_svg(const RooflineScene& scene,
                             const std::vector<RooflinePlacement>& placements,
                             std::size_t base_count,
                             const std::function<std::string(std::size_t)>& run,
                             const RunComparison* cmp) {
  const BackendColours colours = backend_colours(placements);
  SvgMarks marks{placements, colours, base_count, {}, {}, run};
  if (!cmp) return roofline_svg(scene, marks);
  std::map<std::size_t, const CaseComparison*> case_of;  // placement -> its compared case
  const std::vector<CasePlacements> where = case_placements(placements, base_count, cmp->cases);
  for (std::size_t i = 0; i < where.size(); ++i)
    for (const auto& at : {where[i].base, where[i].head})
      if (at) case_of[*at] = &cmp->cases[i];
  marks.arrow = [&](const SceneArrow& a) {
    const CaseComparison& c = cmp->cases.at(a.pair);
    ArrowMark mark{verdict_colour(c.verdict), verdict_lines(c)};
    mark.tip.insert(mark.tip.begin(), c.name);
    return mark;
  };
  marks.point_lines = [&](std::size_t placement) {
    const auto it = case_of.find(placement);
    return it == case_of.end() ? std::vector<std::string>{} : verdict_lines(*it->second);
  };
  return roofline_svg(scene, marks);
}

std::string comparison_html(const ReportInput& base, const ReportInput& head,
                            const ComparisonView& view) {
  const RunComparison& cmp = view.comparison;
  const bool failed = gate_fails(cmp, view.fail_on, view.allow_empty);
  std::string s =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ridgeline "
      "comparison: " +
      escape_html(view.base) + " → " + escape_html(view.head) + "</title><style>" + kReportStyle +
      kComparisonStyle + "</style></head><body>";
  s += "<h1>Ridgeline comparison</h1>" + run_line("base", base) + run_line("new", head);
  s += fmt::format(
      "<p id=\"summary\"><span class=\"{}\">{}</span> (<code>--fail-on {}</code>): {}. Compared "
      "on {}, threshold {}, alpha {:g} (Holm over {}){}.</p>",
      failed ? "gate-failed" : "gate-passed", failed ? "The gate fails" : "The gate passes",
      escape_html(view.fail_on_name), escape_html(tally(cmp)), escape_html(basis(cmp)),
      escape_html(threshold_text(cmp)), cmp.settings.alpha,
      plural(static_cast<std::size_t>(cmp.tested), "case"),
      cmp.tested ? fmt::format("; geometric mean of the ratios {:.3f}", cmp.geomean_ratio) : "");
  s += notes_html(base, head, cmp);

  // Both runs' placements, the base run's first, on the new run's roofs (else the base's);
  // runs from two machines (compared on efficiency) each under its own machine's roofs.
  std::vector<RooflinePlacement> placements = base.placements;
  placements.insert(placements.end(), head.placements.begin(), head.placements.end());
  const ReportInput& roofs = head.machine || !base.machine ? head : base;
  const bool apart = cmp.basis == "efficiency" && head.machine && base.machine;
  const RooflineScene scene = comparison_scene(placements, base.placements.size(), cmp.cases,
                                               roofs.machine ? &*roofs.machine : nullptr, {},
                                               apart ? &*base.machine : nullptr);
  const std::vector<CasePlacements> where =
      case_placements(placements, base.placements.size(), cmp.cases);
  const BackendColours colours = backend_colours(placements);
  std::string verdicts;
  for (Verdict v : {Verdict::regression, Verdict::improvement, Verdict::same, Verdict::inconclusive,
                    Verdict::broken})
    verdicts +=
        fmt::format(R"(<span style="color:{}">→ {}</span>)", verdict_colour(v), to_string(v));
  const std::size_t n = base.placements.size();
  s += "<h2>Roofline</h2>" +
       runs_picture_svg(
           scene, placements, n, [n](std::size_t i) { return i < n ? "base" : "new"; }, &cmp) +
       roofline_legend(placements, colours, "<span>○ base, ● new</span>" + verdicts) +
       (apart ? fmt::format("<p class=\"meta\">Roofs: each run's own machine, the new run's "
                            "solid ({}), the base run's dotted ({}).</p>",
                            escape_html(head.machine_origin), escape_html(base.machine_origin))
              : fmt::format("<p class=\"meta\">Roofs: {} run's machine, {}.</p>",
                            &roofs == &head ? "the new" : "the base",
                            escape_html(roofs.machine_origin))) +
       plot_notes(scene);
  s += verdicts_html(placements, where, cmp) + machines_table(base, head);
  s += "<p class=\"meta\" id=\"footer\">" + escape_html(version_line(head)) + "</p><script>" +
       kSortScript + "</script></body></html>\n";
  return s;
}

}  // namespace ridgeline
