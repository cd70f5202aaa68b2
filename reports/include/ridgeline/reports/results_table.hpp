#pragma once
// The results table, defined once: its columns, their headers and each cell's text and
// value. The HTML report, the Markdown report and the dashboard's results model render
// these columns in this order (the dashboard adds the run a row comes from); report.csv
// writes each column's machine-readable fields (results_csv_fields), so every format shows
// the same columns for the same run (tests/reports/results_table_test.cpp).
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline {

enum class ResultColumn {
  case_name,
  op,
  backend,
  device,
  unit,
  dtype,
  threads,
  gflops,
  time,
  min,
  max,
  cv,
  repetitions,
  intensity,
  level,
  attainable,
  efficiency,
  faster_unit,
  energy,
  bound,
  sources,
  validation,
  notes,
  guidance
};
inline constexpr int kResultColumns = static_cast<int>(ResultColumn::guidance) + 1;

// The groups the columns come in (#66): which case, how long, how fast, where on the
// roofline, and how each number was known. A folded column is in every format, but the HTML
// report shows it when the reader asks (a checkbox per group) and the Markdown report in a
// second table, so that a results row fits one line of a browser window.
enum class ColumnGroup { identity, time, rate, roofline, provenance };
std::string_view to_string(ColumnGroup group);  // "identity", "time", ...

struct ResultColumnSpec {
  ResultColumn column;
  std::string_view header;   // with its unit where it has one: "GFLOP/s", "time per call"
  std::string_view meaning;  // one line: what the column holds and where it comes from
  ColumnGroup group;
  bool folded = false;  // shown on request (HTML) or in the second table (Markdown)
};

// Every column, in the order every format shows them.
const std::vector<ResultColumnSpec>& result_columns();
const ResultColumnSpec& result_column(ResultColumn column);

// A placement's cell in `column`: its text (a number formatted as every report formats it)
// and, for a numeric cell, its value. Notes are one per line ("kind: text"); a cell above
// its roof is marked `alarm`. A column a placement has no value for is empty text.
TableCell result_cell(const RooflinePlacement& placement, ResultColumn column);

// One op's placeable placements (in run order), one row each, every column: the case
// named by compact_case_names among the op's rows, its full name the cell's tooltip. The op
// is table_op's: a foreign result's benchmark name.
struct OpResults {
  std::string op;
  Table table;
};
// The HTML and Markdown reports' Results: a table per op, in the order the ops first ran.
std::vector<OpResults> results_by_op(const std::vector<RooflinePlacement>& placements);

// A results table's unfolded columns (folded = false) or its case column and the folded ones
// (folded = true, the case by its full id): Markdown's two tables of the same groups.
Table results_columns(const Table& table, bool folded);

// The placements that are not on the roofline: case, why, notes (the reports' Not placeable).
Table unplaced_table(const std::vector<RooflinePlacement>& placements);

// report.csv's fields: each column's machine-readable parts (raw numbers, enum spellings),
// in the file's order (stable since schema 1; later fields are appended). Every column has
// at least one field.
struct ResultCsvField {
  std::string_view name;                           // "seconds_per_call"
  ResultColumn column;                             // the column it is the machine-readable form of
  std::string (*value)(const RooflinePlacement&);  // unescaped; "" for none
};
const std::vector<ResultCsvField>& results_csv_fields();

}  // namespace ridgeline
