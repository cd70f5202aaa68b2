// An einsum network's contraction paths, predicted FLOPs beside measured time
// (analysis/einsum_paths.hpp): the table defined once as its columns (table_columns.hpp), every
// printer and paths.csv rendering it.
#include <fmt/format.h>

#include "einsum_sections.hpp"
#include "html_cells.hpp"
#include "markdown_table.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/table_columns.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using namespace reports;

std::string steps_text(const MeasuredPath& m) {
  std::string s;
  for (const MeasuredStep& st : m.steps)
    s += fmt::format("{}{} ({}{})", s.empty() ? "" : "; ", st.equation,
                     st.best.empty() ? "did not run" : st.best,
                     st.best.empty() ? "" : ", " + duration(st.seconds));
  return s;
}

}  // namespace

const std::vector<Column<EinsumPathRow>>& einsum_path_columns() {
  using R = const EinsumPathRow&;
  // What the network is, in the CSV only (the table's title says it); then the table's columns.
  static const std::vector<Column<EinsumPathRow>> columns{
      {"network", [](R r) { return r.network->equation; }},
      {"extents", [](R r) { return r.network->extents; }},
      {"dtype", [](R r) { return r.network->dtype; }},
      {"threads", [](R r) { return std::to_string(r.network->threads); }},
      {"device", [](R r) { return std::string(to_string(r.network->device)); }},
      shown_column<EinsumPathRow>("path",
                                  [](R r) {
                                    const MeasuredPath& m = *r.path;
                                    return text(m.as_written && m.how != "left to right"
                                                    ? m.how + " (the order written)"
                                                    : m.how);
                                  }),
      shown_column<EinsumPathRow>(
          "FLOPs", [](R r) { return number(r.path->flops, flop_count(r.path->flops)); }),
      shown_column<EinsumPathRow>(
          "bytes", [](R r) { return number(r.path->bytes, si_rate(r.path->bytes, "B")); }),
      shown_column<EinsumPathRow>("× fewest FLOPs",
                                  [](R r) {
                                    return number(r.path->flops_vs_fewest,
                                                  fmt::format("{:.2f}×", r.path->flops_vs_fewest));
                                  }),
      shown_column<EinsumPathRow>("at the roof",
                                  [](R r) {
                                    const double s = r.path->roof_seconds;
                                    return s > 0 ? number(s, duration(s)) : none();
                                  }),
      shown_column<EinsumPathRow>("time",
                                  [](R r) {
                                    const MeasuredPath& m = *r.path;
                                    return m.complete ? number(m.seconds, duration(m.seconds))
                                                      : none();
                                  }),
      shown_column<EinsumPathRow>(
          "× fastest",
          [](R r) {
            const MeasuredPath& m = *r.path;
            return m.complete ? number(m.vs_fastest, fmt::format("{:.2f}×", m.vs_fastest)) : none();
          }),
      shown_column<EinsumPathRow>("steps (fastest lowering)",
                                  [](R r) { return text(steps_text(*r.path)); })};
  return columns;
}

Table einsum_paths_table(const EinsumNetworkComparison& n) {
  std::vector<EinsumPathRow> rows;
  for (const MeasuredPath& m : n.paths) rows.push_back({&n, &m});
  return table_of(einsum_path_columns(), rows);
}

std::string einsum_network_title(const EinsumNetworkComparison& n) {
  if (!n.error.empty()) return fmt::format("{} {}", n.equation, n.extents);
  return fmt::format(
      "{} {} {}, {} thread{}: contraction paths, predicted (FLOPs, bytes, time at "
      "the roof) and measured",
      n.equation, n.extents, n.dtype, n.threads, n.threads == 1 ? "" : "s");
}

std::vector<std::string> einsum_network_lines(const EinsumNetworkComparison& n) {
  if (!n.error.empty()) return {n.error};
  std::vector<std::string> lines;
  for (const std::string* l : {&n.verdict, &n.roof, &n.framework})
    if (!l->empty()) lines.push_back(*l);
  return lines;
}

}  // namespace ridgeline

namespace ridgeline::reports {

std::vector<TextRow> text_rows(const Table& t) {
  std::vector<TextRow> rows{t.headers};
  for (const auto& r : t.rows) {
    TextRow row;
    for (const auto& cell : r) row.push_back(escape_visible(cell.text));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string einsum_networks_html(const ReportInput& in) {
  std::string s;
  for (const EinsumNetworkComparison& n : in.einsum_networks) {
    s += fmt::format("<h3>{}</h3>", escape_html(einsum_network_title(n)));
    if (n.error.empty()) s += html_table(einsum_paths_table(n), "<table>");
    for (const std::string& l : einsum_network_lines(n))
      s += fmt::format("<p>{}</p>", escape_html(l));
  }
  return s;
}

std::string einsum_networks_markdown(const ReportInput& in) {
  std::string s;
  for (const EinsumNetworkComparison& n : in.einsum_networks) {
    s += fmt::format("\n### {}\n\n", escape_markdown_cell(einsum_network_title(n)));
    if (n.error.empty()) s += markdown_table(einsum_paths_table(n));
    for (const std::string& l : einsum_network_lines(n))
      s += fmt::format("\n{}\n", escape_markdown_cell(l));
  }
  return s;
}

std::string einsum_networks_terminal(const ReportInput& in) {
  std::string s;
  for (const EinsumNetworkComparison& n : in.einsum_networks) {
    s += fmt::format("\n{}\n", escape_visible(einsum_network_title(n)));
    if (n.error.empty())
      s += format_columns(text_rows(einsum_paths_table(n)), "  ", {1, 2, 3, 4, 5, 6});
    for (const std::string& l : einsum_network_lines(n))
      s += fmt::format("  {}\n", escape_visible(l));
  }
  return s;
}

}  // namespace ridgeline::reports
