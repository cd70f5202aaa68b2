// The Results section of the HTML report: a table per op, each case named compactly (its
// full id in the tooltip), the columns of the groups a reader opens by a checkbox folded.
#include <fmt/format.h>

#include "html_cells.hpp"
#include "html_page.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/results_table.hpp"

namespace ridgeline::reports {

namespace {

std::string column_classes(const ResultColumnSpec& c) {
  return c.folded ? fmt::format("folded g-{}", to_string(c.group)) : "";
}

// "show: [ ] identity (op, backend, …) [ ] time (min, max, …)": one box per group with folded
// columns; the page's script shows a group's columns in every results table.
std::string group_switches() {
  std::string s = "<p class=\"meta column-switches\">More columns:";
  for (ColumnGroup g : {ColumnGroup::identity, ColumnGroup::time, ColumnGroup::rate,
                        ColumnGroup::roofline, ColumnGroup::provenance}) {
    std::string headers;
    for (const auto& c : result_columns())
      if (c.folded && c.group == g)
        headers += (headers.empty() ? "" : ", ") + std::string(c.header);
    if (headers.empty()) continue;
    s += fmt::format(" <label><input type=\"checkbox\" data-group=\"{}\"> {} ({})</label>",
                     to_string(g), to_string(g), escape_html(headers));
  }
  return s + "</p>";
}

std::string op_table(const OpResults& r) {
  const auto& columns = result_columns();
  std::string s =
      "<table class=\"sortable results\" id=\"results-" + escape_html(r.op) + "\"><thead><tr>";
  for (const auto& c : columns) {
    const std::string cls = column_classes(c);
    s += "<th" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + " title=\"" +
         escape_html(std::string(c.meaning)) + "\">" + escape_html(std::string(c.header)) + "</th>";
  }
  s += "</tr></thead><tbody>";
  for (const auto& row : r.table.rows) {
    s += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i)
      s += table_cell(row[i], column_classes(columns[i]));
    s += "</tr>";
  }
  return s + "</tbody></table>";
}

}  // namespace

std::string results_html(const std::vector<RooflinePlacement>& placements) {
  const std::vector<OpResults> by_op = results_by_op(placements);
  std::string s = "<section id=\"results-section\"><h2>Results</h2>";
  s += by_op.empty() ? "<p class=\"meta\">No case was placed.</p>" : group_switches();
  for (const auto& r : by_op)
    s += fmt::format("<h3>{} <span class=\"meta\">{} case{}</span></h3>", escape_html(r.op),
                     r.table.rows.size(), r.table.rows.size() == 1 ? "" : "s") +
         op_table(r);
  s += "</section>";
  if (const Table unplaced = unplaced_table(placements); !unplaced.rows.empty())
    s += "<h2>Not placeable</h2>" + html_table(unplaced, "<table>");
  return s;
}

}  // namespace ridgeline::reports
