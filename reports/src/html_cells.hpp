#pragma once
// Table cells of the HTML report, every string escaped.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "ridgeline/analysis/note.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

inline std::string cell(const std::string& text) {
  return "<td>" + escape_html(text) + "</td>";
}
// One line per note, "kind: text".
inline std::string notes_cell(const std::vector<Note>& notes) {
  std::string s = "<td class=\"notes\">";
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (i > 0) s += "<br>";
    s += escape_html(fmt::format("{}: {}", to_string(notes[i].kind), notes[i].text));
  }
  return s + "</td>";
}
// A number: right-aligned, sorted by its value (data-v), shown as `shown`.
inline std::string num(double value, const std::string& shown) {
  return fmt::format(R"(<td class="n" data-v="{}">{}</td>)", value, escape_html(shown));
}

// A report table (tables.hpp) as HTML, opened by `open` ("<table class=\"sortable\">").
inline std::string html_table(const Table& t, const std::string& open) {
  std::string s = open + "<thead><tr>";
  for (const auto& h : t.headers) s += "<th>" + escape_html(h) + "</th>";
  s += "</tr></thead><tbody>";
  for (const auto& row : t.rows) {
    s += "<tr>";
    for (const auto& c : row) s += std::isnan(c.value) ? cell(c.text) : num(c.value, c.text);
    s += "</tr>";
  }
  return s + "</tbody></table>";
}

}  // namespace ridgeline::reports
