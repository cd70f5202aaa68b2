#pragma once
// Table cells of the HTML report, every string escaped.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

inline std::string cell(const std::string& text) {
  return "<td>" + escape_html(text) + "</td>";
}
// A number: right-aligned, sorted by its value (data-v), shown as `shown`.
inline std::string num(double value, const std::string& shown) {
  return fmt::format(R"(<td class="n" data-v="{}">{}</td>)", value, escape_html(shown));
}

// A table cell: a number right-aligned and sorted by its value, red when it is an alarm; a
// cell of several lines one per line; a cell with a colour of its own in it, in bold; its
// tooltip as the title. `extra` are more classes for it ("folded g-time").
inline std::string table_cell(const TableCell& c, const std::string& extra = "") {
  std::string cls, attrs, body;
  if (!c.colour.empty()) {
    cls = "marked";
    attrs = fmt::format(R"( style="color:{}")", escape_html(c.colour));
    body = escape_html(c.text);
  } else if (!c.lines.empty()) {
    cls = "notes";
    for (std::size_t i = 0; i < c.lines.size(); ++i)
      body += (i > 0 ? "<br>" : "") + escape_html(c.lines[i]);
  } else if (!std::isnan(c.value)) {
    cls = c.alarm ? "n above" : "n";
    attrs = fmt::format(R"( data-v="{}")", c.value);
    body = escape_html(c.text);
  } else {
    body = escape_html(c.text);
  }
  if (!extra.empty()) cls += (cls.empty() ? "" : " ") + extra;
  if (!c.tooltip.empty()) attrs += " title=\"" + escape_html(c.tooltip) + "\"";
  return "<td" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + attrs + ">" + body +
         "</td>";
}

// A report table (tables.hpp) as HTML, opened by `open` ("<table class=\"sortable\">").
inline std::string html_table(const Table& t, const std::string& open) {
  std::string s = open + "<thead><tr>";
  for (const auto& h : t.headers) s += "<th>" + escape_html(h) + "</th>";
  s += "</tr></thead><tbody>";
  for (const auto& row : t.rows) {
    s += "<tr>";
    for (const auto& c : row) s += table_cell(c);
    s += "</tr>";
  }
  return s + "</tbody></table>";
}

}  // namespace ridgeline::reports
