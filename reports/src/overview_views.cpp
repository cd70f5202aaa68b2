// The first screen in HTML, Markdown and the terminal: the same tables and lines
// (overview_tables.cpp), laid out for each.
#include <fmt/format.h>

#include "html_cells.hpp"
#include "markdown_table.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/overview.hpp"

namespace ridgeline {

using namespace reports;

namespace {

// The first screen shows the largest gaps and fusion wins; the sections below hold them all.
constexpr std::size_t kGapsShown = 5;
constexpr std::size_t kFusionShown = 6;

std::vector<std::string> shown_fusion(const Overview& o) {
  std::vector<std::string> lines = overview_fusion_lines(o);
  if (lines.size() > kFusionShown) {
    const std::size_t more = lines.size() - kFusionShown;
    lines.resize(kFusionShown);
    lines.push_back(fmt::format("and {} more pair{} in Fusion below", more, more == 1 ? "" : "s"));
  }
  return lines;
}

// What "Needs attention" says when nothing does: never "every case passed" of no case.
std::string nothing(const Overview& o) {
  return o.cases == 0 ? "the run holds no case"
                      : "nothing: every case passed, quiet, under its roof";
}

std::string html_list(const std::vector<std::string>& lines, const std::string& empty) {
  if (lines.empty()) return "<p class=\"meta\">" + escape_html(empty) + "</p>";
  std::string s = "<ul>";
  for (const auto& l : lines) s += "<li>" + escape_html(l) + "</li>";
  return s + "</ul>";
}

std::string box(const std::string& id, const std::string& title, const std::string& body) {
  return "<div class=\"ov-box\" id=\"" + id + "\"><h3>" + title + "</h3>" + body + "</div>";
}

}  // namespace

std::string overview_html(const ReportInput& in) {
  const Overview& o = in.overview;
  std::string s = "<section id=\"overview\"><h2>At a glance</h2><p class=\"meta\">" +
                  escape_html(overview_machine_line(o)) + "</p><div class=\"ov\">";
  if (o.machine.known)
    s += box("ov-machine", "Roofs", html_table(overview_roofs_table(o), "<table>"));
  s += box("ov-best", "Best kernel per op",
           o.best.empty() ? "<p class=\"meta\">no case was placed</p>"
                          : html_table(overview_best_table(o, in.placements), "<table>"));
  s += box("ov-attention", "Needs attention", html_list(overview_concern_lines(o), nothing(o)));
  // Fusion's lines wrap in the narrow column; the gaps' table takes the wide one.
  if (!o.fusion.empty() || !o.gaps.empty())
    s += box("ov-fusion", "Fusion",
             html_list(shown_fusion(o), "no fused and unfused pair in this run"));
  if (!o.gaps.empty())
    s += box("ov-gaps", "Ours against the best vendor (largest gaps first)",
             html_table(overview_gaps_table(o, in.placements, kGapsShown), "<table>"));
  return s + "</div></section>";
}

std::string overview_markdown(const ReportInput& in) {
  const Overview& o = in.overview;
  auto md = [](const std::string& t) { return escape_markdown_cell(t); };
  // Without a model, the machine section right below says so.
  std::string s = "## At a glance\n\n";
  if (o.machine.known)
    s += md(overview_machine_line(o)) + "\n\n" + markdown_table(overview_roofs_table(o)) + "\n";
  s += o.best.empty() ? "No case was placed.\n\n"
                      : markdown_table(overview_best_table(o, in.placements)) + "\n";
  s += "**Needs attention:**";
  const auto concerns = overview_concern_lines(o);
  if (concerns.empty()) s += " " + nothing(o) + ".";
  s += "\n\n";
  for (const auto& l : concerns) s += "- " + md(l) + "\n";
  if (!concerns.empty()) s += "\n";
  if (!o.gaps.empty())
    s += "**Ours against the best vendor** (largest gaps first):\n\n" +
         markdown_table(overview_gaps_table(o, in.placements, kGapsShown)) + "\n";
  if (!o.fusion.empty()) {
    s += "**Fusion:**\n\n";
    for (const auto& l : shown_fusion(o)) s += "- " + md(l) + "\n";
    s += "\n";
  }
  return s;
}

std::string overview_terminal(const ReportInput& in) {
  const Overview& o = in.overview;
  auto rows_of = [](const Table& t) {
    std::vector<TextRow> rows{t.headers};
    for (const auto& r : t.rows) {
      rows.emplace_back();
      for (const auto& c : r) rows.back().push_back(escape_visible(c.text));
    }
    return rows;
  };
  std::string s = "\nAt a glance: " + escape_visible(overview_machine_line(o)) + "\n";
  if (o.machine.known)
    s += "Roofs:\n" + format_columns(rows_of(overview_roofs_table(o)), "  ", {2, 3});
  if (!o.best.empty())
    s += "Best kernel per op:\n" +
         format_columns(rows_of(overview_best_table(o, in.placements)), "  ", {4, 5});
  if (!o.gaps.empty())
    s += "Ours against the best vendor (largest gaps first):\n" +
         format_columns(rows_of(overview_gaps_table(o, in.placements, kGapsShown)), "  ", {3});
  const auto concerns = overview_concern_lines(o);
  s += concerns.empty() ? "Needs attention: " + nothing(o) + ".\n" : "Needs attention:\n";
  for (const auto& l : concerns) s += "  " + escape_visible(l) + "\n";
  if (!o.fusion.empty()) s += "Fusion:\n";
  for (const auto& l : shown_fusion(o)) s += "  " + escape_visible(l) + "\n";
  return s;
}

}  // namespace ridgeline
