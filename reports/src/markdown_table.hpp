#pragma once
// A report table (tables.hpp) in Markdown, as html_cells.hpp renders it in HTML.
#include <cmath>
#include <string>
#include <vector>

#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

// The header and the rule under it: numeric columns (any row's cell a number) right-aligned.
inline std::string markdown_header(const Table& t) {
  std::string s = "|", rule = "|";
  for (std::size_t c = 0; c < t.headers.size(); ++c) {
    bool numeric = false;
    for (const auto& row : t.rows) numeric |= c < row.size() && !std::isnan(row[c].value);
    s.append(" ").append(escape_markdown_cell(t.headers[c])).append(" |");
    rule += numeric ? "---:|" : "---|";
  }
  return s.append("\n").append(rule).append("\n");
}

// One row: every cell escaped, an alarm in bold.
inline std::string markdown_row(const std::vector<TableCell>& row) {
  std::string s = "|";
  for (const auto& c : row) {
    const std::string shown = escape_markdown_cell(c.text);
    s.append(" ").append(c.alarm && !shown.empty() ? "**" + shown + "**" : shown).append(" |");
  }
  return s + "\n";
}

inline std::string markdown_table(const Table& t) {
  std::string s = markdown_header(t);
  for (const auto& row : t.rows) s += markdown_row(row);
  return s;
}

}  // namespace ridgeline::reports
