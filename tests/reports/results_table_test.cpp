// The results table is defined once (results_table.hpp): the HTML and Markdown reports show
// its columns in its order with its cells' text, report.csv has a field for every column,
// and nothing else is a column. The dashboard's model is checked in tests/gui.
#include "ridgeline/reports/results_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {
namespace {

ReportInput recorded(const char* fixture) {
  Run run = read_run_file(std::string(RIDGELINE_FIXTURES) + "/" + fixture);
  auto machine = run.context.machine;
  return make_report_input(std::move(run), fixture, machine, "the model embedded in the run");
}

std::vector<std::string> headers() {
  std::vector<std::string> h;
  for (const auto& c : result_columns()) h.emplace_back(c.header);
  return h;
}

// The cells of every <th> or <td> of the HTML table that `open` starts, row by row.
std::vector<std::vector<std::string>> html_rows(const std::string& html, const std::string& open) {
  const auto start = html.find(open);
  const auto end = html.find("</table>", start);
  EXPECT_NE(start, std::string::npos) << open;
  const std::string table = html.substr(start, end - start);
  std::vector<std::vector<std::string>> rows;
  const std::regex row("<tr>(.*?)</tr>"), cell("<t[hd][^>]*>(.*?)</t[hd]>");
  for (std::sregex_iterator r(table.begin(), table.end(), row), e; r != e; ++r) {
    const std::string cells = (*r)[1];
    auto& out = rows.emplace_back();
    for (std::sregex_iterator c(cells.begin(), cells.end(), cell); c != e; ++c)
      out.push_back((*c)[1]);
  }
  return rows;
}

// The cells of each line of the Markdown table under `heading`, the rule line left out.
std::vector<std::vector<std::string>> markdown_rows(const std::string& md,
                                                    const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  std::size_t at = md.find(heading + "\n\n");
  EXPECT_NE(at, std::string::npos) << heading;
  at += heading.size() + 2;
  while (at < md.size() && md[at] == '|') {
    const std::string line = md.substr(at, md.find('\n', at) - at);
    at += line.size() + 1;
    if (line.rfind("|---", 0) == 0) continue;
    auto& out = rows.emplace_back();
    // Cells split at an unescaped "|"; the cells' text is escaped, so "\|" is part of a cell.
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        cell += line.substr(i, 2);
        ++i;
      } else if (line[i] == '|') {
        // "| text |": one space either side
        out.push_back(cell.size() >= 2 ? cell.substr(1, cell.size() - 2) : cell);
        cell.clear();
      } else {
        cell += line[i];
      }
    }
  }
  return rows;
}

class ResultsTable : public testing::TestWithParam<const char*> {};

// A table per op (results_by_op): every column, each cell the table's text, the case by
// its compact name.
TEST_P(ResultsTable, HtmlShowsEveryColumnWithTheTablesText) {
  const ReportInput in = recorded(GetParam());
  const std::vector<OpResults> by_op = results_by_op(in.placements);
  ASSERT_FALSE(by_op.empty());
  const std::string html = html_report(in);
  std::size_t placed = 0;
  for (const auto& r : by_op) {
    const Table& t = r.table;
    placed += t.rows.size();
    const auto rows =
        html_rows(html, "<table class=\"sortable results\" id=\"results-" + r.op + "\">");
    ASSERT_EQ(rows.size(), t.rows.size() + 1) << r.op;
    EXPECT_EQ(rows[0], headers());
    for (std::size_t row = 0; row < t.rows.size(); ++row)
      for (std::size_t c = 0; c < t.headers.size(); ++c)
        if (t.rows[row][c].lines.empty()) {  // notes are one per line (<br>)
          EXPECT_EQ(rows[row + 1][c], escape_html(t.rows[row][c].text)) << t.headers[c];
        }
  }
  EXPECT_EQ(placed, static_cast<std::size_t>(
                        std::count_if(in.placements.begin(), in.placements.end(),
                                      [](const RooflinePlacement& p) { return p.placeable; })));
}

// Markdown in the same groups: a table per op of the unfolded columns, then one of the
// folded columns with every case by its full name.
TEST_P(ResultsTable, MarkdownShowsEveryColumnWithTheTablesText) {
  const ReportInput in = recorded(GetParam());
  const std::string md = markdown_report(in);
  std::size_t placed = 0;
  auto expect_rows = [](const std::vector<std::vector<std::string>>& rows, const Table& t) {
    ASSERT_GE(rows.size(), t.rows.size() + 1);
    EXPECT_EQ(rows[0], t.headers);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      ASSERT_EQ(rows[r + 1].size(), t.headers.size());
      for (std::size_t c = 0; c < t.headers.size(); ++c)
        if (!t.rows[r][c].alarm) {
          EXPECT_EQ(rows[r + 1][c], escape_markdown_cell(t.rows[r][c].text)) << t.headers[c];
        }
    }
  };
  const auto folded_rows = markdown_rows(md, "### Timing spread, units and provenance");
  for (const auto& r : results_by_op(in.placements)) {
    const Table shown = results_columns(r.table, false);
    expect_rows(markdown_rows(md, "### " + escape_markdown_cell(r.op)), shown);
    const Table folded = results_columns(r.table, true);
    EXPECT_EQ(shown.headers.size() + folded.headers.size(), headers().size() + 1);
    std::vector<std::vector<std::string>> mine{folded_rows.at(0)};
    for (std::size_t i = 0; i < folded.rows.size(); ++i)
      mine.push_back(folded_rows.at(1 + placed + i));
    expect_rows(mine, folded);
    EXPECT_EQ(folded.rows.front().front().text, r.table.rows.front().front().tooltip);
    placed += r.table.rows.size();
  }
  EXPECT_EQ(folded_rows.size(), placed + 1);
}

TEST_P(ResultsTable, CsvHasAFieldForEveryColumnAndOneRowPerCase) {
  const ReportInput in = recorded(GetParam());
  std::set<ResultColumn> covered;
  std::string header;
  for (const auto& f : results_csv_fields()) {
    covered.insert(f.column);
    if (!header.empty()) header += ',';
    header += f.name;
  }
  EXPECT_EQ(covered.size(), result_columns().size());
  const std::string csv = csv_report(in);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), header);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'),
            static_cast<std::ptrdiff_t>(in.placements.size() + 1));
}

// A schema-1 run and a schema-2 fusion run (their roles inferred by the reader).
INSTANTIATE_TEST_SUITE_P(Fixtures, ResultsTable,
                         testing::Values("run-smoke-f64-zen4-vm.json",
                                         "run-fusion-small-zen5-vm.json"));

// The fusion pair table is defined once too (reports/src/fusion_text.cpp): HTML and Markdown
// show the same columns (the HTML's notes as a list under it) and as many rows, one per pair.
TEST(FusionPairTable, HtmlAndMarkdownShowTheSameColumnsAndRows) {
  const ReportInput in = recorded("run-fusion-small-zen5-vm.json");
  ASSERT_FALSE(in.fusion.pairs.empty());
  const auto html = html_rows(html_report(in), "<table class=\"sortable\" id=\"fusion-pairs\">");
  const auto md = markdown_rows(markdown_report(in), "counters where measured.");
  ASSERT_EQ(html.size(), in.fusion.pairs.size() + 1);
  ASSERT_EQ(md.size(), html.size());
  // The HTML page has the notes under the table (a pair to a line), Markdown in its last column.
  ASSERT_EQ(md[0].back(), "notes");
  EXPECT_EQ(std::vector<std::string>(md[0].begin(), md[0].end() - 1), html[0]);
  EXPECT_EQ(html[0].front(), "problem");
  for (std::size_t r = 1; r < html.size(); ++r) {
    EXPECT_EQ(md[r].size(), html[0].size() + 1);
    EXPECT_EQ(html[r].size(), html[0].size());
    // The problem, "softmax rows=…", escaped by each format.
    EXPECT_EQ(md[r][0], escape_markdown_cell(in.fusion.pairs[r - 1].op + " " +
                                             in.fusion.pairs[r - 1].params));
    EXPECT_EQ(html[r][0],
              escape_html(in.fusion.pairs[r - 1].op + " " + in.fusion.pairs[r - 1].params));
  }
}

TEST(ResultsTable, ColumnsAreListedInTheirEnumsOrder) {
  const auto& columns = result_columns();
  ASSERT_EQ(static_cast<int>(columns.size()), kResultColumns);
  for (int i = 0; i < kResultColumns; ++i)
    EXPECT_EQ(static_cast<int>(columns[i].column), i) << columns[i].header;
}

// FLOPs per joule where an energy collector read the timed calls, with whose energy; empty
// where none did (the fixtures ran without one).
TEST(ResultsTable, EnergyIsShownWhereItWasReadAndEmptyWhereNot) {
  ReportInput in = recorded("run-smoke-f64-zen4-vm.json");
  RooflinePlacement& p = in.placements.front();
  EXPECT_EQ(result_cell(p, ResultColumn::energy).text, "");
  p.flop_per_joule = 9.284e11;
  p.energy_domain = "gpu";
  const TableCell c = result_cell(p, ResultColumn::energy);
  EXPECT_EQ(c.text, "928.4 (gpu)");
  EXPECT_DOUBLE_EQ(c.value, 928.4);
  const std::string csv = csv_report(in);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find(",flop_per_joule,energy_domain,compute_unit,"), std::string::npos)
      << header;
  const std::size_t first = csv.find('\n') + 1;
  const std::string row = csv.substr(first, csv.find('\n', first) - first);
  // energy, then the unit (a recorded run from before units: the GPU's default for the op)
  EXPECT_NE(row.find(",9.284e+11,gpu,"), std::string::npos) << row;
}

TEST(ResultsTable, AnAboveRoofEfficiencyIsAnAlarmInEveryFormat) {
  ReportInput in = recorded("run-smoke-f64-zen4-vm.json");
  RooflinePlacement* placed = nullptr;
  for (auto& p : in.placements)
    if (p.placeable && p.attainable > 0) placed = &p;
  ASSERT_NE(placed, nullptr);
  placed->above_roof = true;
  placed->efficiency = 1.25;
  const TableCell c = result_cell(*placed, ResultColumn::efficiency);
  EXPECT_TRUE(c.alarm);
  EXPECT_EQ(c.text, "125% above roof");
  EXPECT_NE(html_report(in).find("<td class=\"n above\" data-v=\"1.25\">125% above roof</td>"),
            std::string::npos);
  EXPECT_NE(markdown_report(in).find("| **125% above roof** |"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
