// The verdict table (comparison_rows.hpp): its columns, once, for every printer.
#include <fmt/format.h>

#include <cctype>

#include "ridgeline/reports/comparison_rows.hpp"
#include "ridgeline/reports/roofline_style.hpp"
#include "table_cells.hpp"

namespace ridgeline::comparison_rows {

using reports::number;
using reports::text;

namespace {

TableCell verdict_cell(Verdict v) {
  std::string shown(to_string(v));
  for (auto& ch : shown) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  TableCell c = text(std::move(shown));
  c.colour = verdict_colour(v);
  return c;
}

TableCell why_cell(const CaseComparison& c) {
  TableCell why = text("");
  if (!c.reason.empty()) why.lines.push_back(c.reason);
  for (const auto& n : c.noise) why.lines.push_back("noisy, " + n);
  why.text = fmt::format("{}", fmt::join(why.lines, "; "));
  return why;
}

}  // namespace

Table verdict_table(const std::vector<const CaseComparison*>& rows) {
  Table t{{"verdict", "new ÷ base", "interval", "p (Holm)", "repetitions base/new", "case",
           "why, and each run's noise"},
          {}};
  for (const CaseComparison* c : rows)
    t.rows.push_back(
        {verdict_cell(c->verdict), c->tested ? number(c->ratio, ratio(*c)) : text("-"),
         text(interval(*c)), c->tested ? number(c->p_holm, p_holm(*c)) : text("-"),
         number(static_cast<double>(std::min(c->base.size(), c->head.size())), repetitions(*c)),
         text(c->name), why_cell(*c)});
  return t;
}

}  // namespace ridgeline::comparison_rows
