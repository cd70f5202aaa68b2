// Every CSV file beside report.csv is its table's column list (table_columns.hpp): its header
// is the list's names, each line has a field per column, and the table the reports and the
// dashboard show is the list's columns that have a cell, in its order. A CSV file that wrote
// its own header or fields, or a table its own columns, would drift from the list and fail here.
#include "ridgeline/reports/table_columns.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "fusion_runs.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/report.hpp"
#include "text_checks.hpp"

namespace ridgeline {

namespace {

ReportInput fusion_input() {
  Run run = fusion_runs::fusion_run();
  auto machine = run.context.machine;
  return make_report_input(std::move(run), "fusion.json", machine, "the test's machine");
}

// The recorded einsum run, with its first contraction as a network of its own (its paths).
ReportInput einsum_input() {
  Run run = read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
  run.context.provenance.einsum_networks = {{"bthr,bThr->bhtT", "b=2,t=64,h=4,r=32,T=64"}};
  const MachineModel m =
      read_machine_file(std::string(RIDGELINE_FIXTURES) + "/machine-zen4-vm.json");
  return make_report_input(std::move(run), "run.json", m, "machine-zen4-vm.json");
}

using test::csv_fields;
using test::csv_lines;

template <typename Row>
std::vector<std::string> names(const std::vector<Column<Row>>& columns) {
  std::vector<std::string> n;
  for (const auto& c : columns) n.push_back(c.name);
  return n;
}

template <typename Row>
std::vector<std::string> shown_headers(const std::vector<Column<Row>>& columns) {
  std::vector<std::string> h;
  for (const auto& c : columns)
    if (c.cell) h.push_back(c.header);
  return h;
}

// `csv` is the file of `columns`: their names, then `rows` lines of a field per column.
template <typename Row>
void expect_file_of(const std::string& csv, const std::vector<Column<Row>>& columns,
                    std::size_t rows) {
  const auto file = csv_lines(csv);
  ASSERT_EQ(file.size(), rows + 1) << csv;
  EXPECT_EQ(csv_fields(file[0]), names(columns));
  for (const auto& line : file) EXPECT_EQ(csv_fields(line).size(), columns.size()) << line;
}

// The <th> cells of the HTML table that `open` starts.
std::vector<std::string> html_headers(const std::string& html, const std::string& open) {
  std::vector<std::string> out;
  const auto start = html.find(open);
  EXPECT_NE(start, std::string::npos) << open;
  const auto end = html.find("</tr>", start);
  for (auto at = html.find("</th>", start); at < end; at = html.find("</th>", at + 1)) {
    const auto text = html.rfind('>', at) + 1;  // a header's text holds no '>' (escaped)
    out.push_back(html.substr(text, at - text));
  }
  return out;
}

std::vector<std::string> escaped(const std::vector<std::string>& headers) {
  std::vector<std::string> out;
  for (const auto& h : headers) out.push_back(escape_html(h));
  return out;
}

}  // namespace

TEST(TableColumns, EveryColumnHasAFieldNameAndEveryShownColumnAHeader) {
  const auto check = [](const auto& columns) {
    std::set<std::string> seen;
    for (const auto& c : columns) {
      EXPECT_FALSE(c.name.empty());
      EXPECT_TRUE(c.value) << c.name;
      EXPECT_TRUE(seen.insert(c.name).second) << c.name << " twice";
      if (c.cell) {
        EXPECT_FALSE(c.header.empty()) << c.name;
      }
    }
    EXPECT_FALSE(shown_headers(columns).empty());
  };
  check(fusion_columns());
  check(sweep_columns());
  check(pass_columns());
  check(einsum_columns());
  check(einsum_path_columns());
}

TEST(TableColumns, TheFusionFilesAreTheirTablesColumns) {
  const ReportInput in = fusion_input();
  ASSERT_FALSE(in.fusion.pairs.empty());
  ASSERT_FALSE(in.fusion.unpaired.empty());
  expect_file_of(fusion_csv(in), fusion_columns(),
                 in.fusion.pairs.size() + in.fusion.unpaired.size());
  std::size_t points = 0;
  for (const auto& s : in.fusion.eltwise_sweeps) points += s.points.size();
  ASSERT_GT(points, 0u);
  expect_file_of(sweep_csv(in), sweep_columns(), points);
  ASSERT_EQ(in.fusion.chains.size(), 1u);
  expect_file_of(passes_csv(in), pass_columns(), in.fusion.chains[0].passes.size());

  const std::string html = html_report(in);
  // The page lists the pairs' notes under the table; its columns are the others.
  std::vector<std::string> pair_headers = escaped(shown_headers(fusion_columns()));
  ASSERT_EQ(pair_headers.back(), "notes");
  pair_headers.pop_back();
  EXPECT_EQ(html_headers(html, "id=\"fusion-pairs\">"), pair_headers);
  EXPECT_EQ(html_headers(html, "<table class=\"sortable sweep-table\">"),
            escaped(shown_headers(sweep_columns())));
  EXPECT_EQ(unfused_pass_table(in.fusion.chains[0]).headers, shown_headers(pass_columns()));
}

TEST(TableColumns, TheEinsumFilesAreTheirTablesColumns) {
  const ReportInput in = einsum_input();
  ASSERT_FALSE(in.einsum.empty());
  std::size_t lowerings = 0, steps = 0;
  for (const auto& c : in.einsum)
    for (const auto& l : c.lowerings) {
      ++lowerings;
      if (l.passes) steps += l.passes->passes.size();
    }
  expect_file_of(einsum_csv(in), einsum_columns(), lowerings);
  ASSERT_GT(steps, 0u);
  expect_file_of(passes_csv(in), pass_columns(), steps);
  ASSERT_EQ(in.einsum_networks.size(), 1u);
  expect_file_of(einsum_paths_csv(in), einsum_path_columns(), in.einsum_networks[0].paths.size());

  EXPECT_EQ(einsum_table(in.einsum[0]).headers, shown_headers(einsum_columns()));
  EXPECT_EQ(einsum_paths_table(in.einsum_networks[0]).headers,
            shown_headers(einsum_path_columns()));
}

// A column the table shows and the CSV writes as its cell (the passes', the paths'): the
// cell's number where it has one, its text otherwise, nothing for a dash.
TEST(TableColumns, AShownColumnsFieldIsItsCell) {
  EXPECT_EQ(cell_field({"15 ms", 0.015, false, {}, {}, {}}), "0.015");
  EXPECT_EQ(cell_field({"yes: loses here", NAN, false, {}, {}, {}}), "yes: loses here");
  EXPECT_EQ(cell_field({"—", NAN, false, {}, {}, {}}), "");
  EXPECT_EQ(cell_field({"0", 0, false, {}, {}, {}}), "");  // not a usable number: none
}

}  // namespace ridgeline
