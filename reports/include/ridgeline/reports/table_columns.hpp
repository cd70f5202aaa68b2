#pragma once
// The tables whose rows a CSV file also holds, each defined once as a list of columns: a
// column is a CSV field (its name and value) and, where the HTML and Markdown reports and the
// dashboard show it, a table column (its header and cell). The table renders the columns that
// have a cell, in the list's order; the CSV file every column. So a table and its CSV file
// cannot drift apart, and no CSV writes a header or a cell of its own
// (tests/reports/table_columns_test.cpp). The results table is defined alike in
// results_table.hpp, as an enum of columns with CSV fields of their own, since report.csv's
// field order (stable since schema 1) is not its table's.
#include <functional>
#include <string>
#include <vector>

#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline {

template <typename Row>
struct Column {
  std::string name;                                // the CSV file's field
  std::function<std::string(const Row&)> value;    // the field's value, unescaped; "" for none
  std::string header = {};                         // the table's header, where it shows the column
  std::function<TableCell(const Row&)> cell = {};  // the table's cell; none: only the CSV has it
};

// A cell as a CSV field: its number (a reader computes with it), else its text; a dash (no
// value) an empty field.
std::string cell_field(const TableCell& cell);

// A column the table shows whose CSV field is its cell (cell_field), named by its header.
template <typename Row>
Column<Row> shown_column(std::string header, std::function<TableCell(const Row&)> cell) {
  return {header, [cell](const Row& row) { return cell_field(cell(row)); }, header, cell};
}

// The table: the columns with a cell, a line per row.
template <typename Row>
Table table_of(const std::vector<Column<Row>>& columns, const std::vector<Row>& rows) {
  Table t;
  for (const auto& c : columns)
    if (c.cell) t.headers.push_back(c.header);
  for (const Row& row : rows) {
    auto& cells = t.rows.emplace_back();
    for (const auto& c : columns)
      if (c.cell) cells.push_back(c.cell(row));
  }
  return t;
}

// The CSV file: every column's name, then a line per row; every field escaped.
template <typename Row>
std::string csv_of(const std::vector<Column<Row>>& columns, const std::vector<Row>& rows) {
  std::string s;
  for (const auto& c : columns) s.append(s.empty() ? "" : ",").append(escape_csv_field(c.name));
  s += "\n";
  for (const Row& row : rows) {
    for (std::size_t i = 0; i < columns.size(); ++i)
      s.append(i > 0 ? "," : "").append(escape_csv_field(columns[i].value(row)));
    s += "\n";
  }
  return s;
}

// The fusion pairs (the pair table) and, in the same CSV file, the cases without a twin.
struct FusionRow {
  const FusionPair* pair = nullptr;          // a pair, or
  const FusionUnpaired* unpaired = nullptr;  // a fused or unfused case without its twin
};
const std::vector<Column<FusionRow>>& fusion_columns();

// The eltwise chain's sweeps: a row per (sweep, L).
struct SweepRow {
  const EltwiseSweep* sweep = nullptr;
  const EltwiseSweepPoint* point = nullptr;
};
const std::vector<Column<SweepRow>>& sweep_columns();

// An unfused chain's passes (or an einsum lowering's lapped steps): a row per pass, after what
// the chain is (only the CSV has it; a table's title says it).
struct PassRow {
  const UnfusedChain* chain = nullptr;
  const PassPoint* pass = nullptr;
};
const std::vector<Column<PassRow>>& pass_columns();
std::vector<PassRow> pass_rows(const UnfusedChain& chain);

// An einsum contraction's lowerings: a row per lowering, after what the contraction is.
struct EinsumRow {
  const EinsumComparison* contraction = nullptr;
  const EinsumLowering* lowering = nullptr;
};
const std::vector<Column<EinsumRow>>& einsum_columns();

// An einsum network's contraction paths: a row per path, after what the network is.
struct EinsumPathRow {
  const EinsumNetworkComparison* network = nullptr;
  const MeasuredPath* path = nullptr;
};
const std::vector<Column<EinsumPathRow>>& einsum_path_columns();

}  // namespace ridgeline
