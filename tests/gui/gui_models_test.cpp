// The dashboard's widget-free library on a recorded run: the results model (checked by Qt's
// QAbstractItemModelTester), the roofline painter against the HTML report's SVG (the same
// points from the same scene), and the hit test.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QColor>
#include <QImage>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>
#include <sstream>

#include "gui_test_files.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/gui/comparison_model.hpp"
#include "ridgeline/gui/exports.hpp"
#include "ridgeline/gui/results_filter.hpp"
#include "ridgeline/gui/results_model.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "ridgeline/gui/run_document.hpp"
#include "ridgeline/gui/sweep_painter.hpp"
#include "ridgeline/gui/table_model.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/results_table.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::gui {
namespace {

std::shared_ptr<const RunDocument> recorded() {
  return std::make_shared<const RunDocument>(open_run_document(test_files::kRun.toStdString()));
}

TEST(ResultsModel, PassesQtsModelTesterAndShowsWhatTheReportShows) {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto doc = recorded();
  model.set_document(doc);
  const auto& placements = doc->input.placements;
  ASSERT_EQ(model.rowCount(), static_cast<int>(placements.size()));
  ASSERT_GT(placements.size(), 5u);
  EXPECT_EQ(model.columnCount(), ResultsModel::kColumns);
  for (int row = 0; row < model.rowCount(); ++row) {
    const RooflinePlacement& p = placements[static_cast<std::size_t>(row)];
    EXPECT_EQ(model.index(row, ResultsModel::kCase).data().toString().toStdString(), p.name);
    EXPECT_EQ(model.index(row, ResultsModel::kGflops).data().toString().toStdString(),
              reports::gflops(p.achieved));
    EXPECT_DOUBLE_EQ(
        model.index(row, ResultsModel::kGflops).data(ResultsModel::kSortRole).toDouble(),
        p.achieved);
    EXPECT_EQ(model.index(row, 0).data(ResultsModel::kPlacementRole).toInt(), row);
  }
  EXPECT_EQ(model.headerData(ResultsModel::kEfficiency, Qt::Horizontal).toString(), "efficiency");
  // The report's results columns (results_table.hpp), the run after the case, each cell as
  // the reports write it.
  QStringList expected;
  for (const auto& c : result_columns())
    expected << QString::fromUtf8(c.header.data(), static_cast<int>(c.header.size()));
  expected.insert(ResultsModel::kRun, "run");
  QStringList shown;
  for (int c = 0; c < model.columnCount(); ++c)
    shown << model.headerData(c, Qt::Horizontal).toString();
  EXPECT_EQ(shown, expected);
  for (int row = 0; row < model.rowCount(); ++row)
    for (const auto& c : result_columns()) {
      const TableCell cell = result_cell(placements[static_cast<std::size_t>(row)], c.column);
      const int column = c.column == ResultColumn::case_name ? 0 : 1 + static_cast<int>(c.column);
      if (cell.lines.empty()) {
        EXPECT_EQ(model.index(row, column).data().toString().toStdString(), cell.text) << c.header;
      }
    }
  // Two runs one after another (an overlay), each row naming its run.
  const auto other = recorded();
  model.set_documents({doc, other}, {"a.json", "b.json"});
  const int n = static_cast<int>(placements.size());
  ASSERT_EQ(model.rowCount(), 2 * n);
  EXPECT_EQ(model.document(), other.get());  // the run shown: the last
  EXPECT_EQ(model.index(n - 1, ResultsModel::kRun).data().toString(), "a.json");
  EXPECT_EQ(model.index(n, ResultsModel::kRun).data().toString(), "b.json");
  EXPECT_EQ(model.index(n + 1, ResultsModel::kCase).data().toString().toStdString(),
            placements[1].name);
  EXPECT_EQ(model.locate(static_cast<std::size_t>(n + 1)),
            (std::pair<const RunDocument*, std::size_t>{other.get(), 1}));
  EXPECT_EQ(model.locate(static_cast<std::size_t>(2 * n)).first, nullptr);
  model.set_document(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.document(), nullptr);
}

TEST(RooflinePainter, DrawsTheSvgsPointsAndHitsThemBack) {
  const auto doc = recorded();
  const ReportInput& in = doc->input;
  const MachineModel* machine = in.machine ? &*in.machine : nullptr;
  ASSERT_NE(machine, nullptr);
  const RooflineScene scene = roofline_scene(in.placements, machine, {}, in.fusion.pairs);
  ASSERT_FALSE(scene.points.empty());

  // The HTML report draws each f64 point as a 10 px square centred on the scene's point.
  const std::string html = html_report(in);
  const std::regex square(R"svg(<rect x="([0-9.]+)" y="([0-9.]+)" width="10" height="10")svg");
  std::vector<std::pair<double, double>> svg;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), square);
       it != std::sregex_iterator(); ++it)
    svg.emplace_back(std::stod((*it)[1]) + 5, std::stod((*it)[2]) + 5);
  ASSERT_EQ(svg.size(), scene.points.size());

  QImage image(static_cast<int>(scene.canvas.width), static_cast<int>(scene.canvas.height),
               QImage::Format_ARGB32);
  image.fill(Qt::white);
  const BackendColours colours = backend_colours(in.placements);
  {
    QPainter painter(&image);
    paint_roofline(painter, scene, {in.placements, colours, {}});
  }
  for (std::size_t i = 0; i < scene.points.size(); ++i) {
    const ScenePoint& pt = scene.points[i];
    EXPECT_NEAR(svg[i].first, pt.x, 0.06);  // the SVG rounds to 0.1 px
    EXPECT_NEAR(svg[i].second, pt.y, 0.06);
    // The hit test finds a point at this very place (the topmost of equal ones).
    const auto hit = hit_test(scene, QPointF(pt.x, pt.y));
    ASSERT_TRUE(hit.has_value());
    bool found = false;
    for (const auto& other : scene.points)
      found |= other.placement == *hit && std::hypot(other.x - pt.x, other.y - pt.y) < 0.01;
    EXPECT_TRUE(found);
    // The centre pixel has the colour of the last marker drawn over it (a 10 px square, its
    // 1.5 px stroke dark), as in the SVG; skipped where another marker's edge crosses it.
    const RooflinePlacement* top = nullptr;
    bool edge = false;
    for (const auto& other : scene.points) {
      const double dx = std::abs(other.x - pt.x), dy = std::abs(other.y - pt.y);
      if (dx < 4 && dy < 4)
        top = &in.placements[other.placement], edge = false;
      else if (dx < 6.5 && dy < 6.5)
        edge = true;
    }
    ASSERT_NE(top, nullptr);
    if (!edge) {
      EXPECT_EQ(
          image.pixelColor(static_cast<int>(std::floor(pt.x)), static_cast<int>(std::floor(pt.y)))
              .name()
              .toStdString(),
          colours.at(top->backend))
          << top->name;
    }
  }
  EXPECT_FALSE(hit_test(scene, QPointF(scene.canvas.plot_left() + 2, scene.canvas.plot_top() + 2)));
  // Not blank: roofs and labels drew dark pixels beyond the markers.
  int dark = 0;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) dark += qGray(image.pixel(x, y)) < 128;
  EXPECT_GT(dark, 500);
}

TEST(RooflinePainter, ASelectedCaseMeasuredAtSeveralLevelsHasItsPointsJoined) {
  RooflinePlacement p;
  p.name = "counted";
  p.backend = "cpu.x";
  p.dtype = "f32";
  p.placeable = true;
  p.achieved = 3e10;
  p.intensity = {{"L1", 2.0}, {"DRAM", 30.0}};
  const std::vector<RooflinePlacement> placements{p};
  const RooflineScene scene = roofline_scene(placements, nullptr);
  ASSERT_EQ(scene.points.size(), 2u);
  const BackendColours colours = backend_colours(placements);
  const auto dark_between = [&](std::set<std::size_t> selected) {
    const QImage image = roofline_image(scene, {placements, colours, std::move(selected)});
    const double x0 = std::min(scene.points[0].x, scene.points[1].x) + 10;
    const double x1 = std::max(scene.points[0].x, scene.points[1].x) - 10;
    int dark = 0;
    for (double x = x0; x < x1; x += 1)
      dark += qGray(image.pixel(static_cast<int>(x), static_cast<int>(scene.points[0].y))) < 100;
    return dark;
  };
  EXPECT_EQ(dark_between({}), 0);
  EXPECT_GT(dark_between({0}), 20);  // a dashed line: more than a few pixels
}

TEST(ResultsFilter, FacetsAndTextTogether) {
  ResultsModel model;
  ResultsFilter filter;
  filter.setSourceModel(&model);
  QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_document(recorded());
  const int all = filter.rowCount();
  EXPECT_EQ(filter.facet_values(ResultsModel::kThreads), (QStringList{"1", "2"}));
  EXPECT_EQ(filter.facet_values(ResultsModel::kDevice), (QStringList{"CPU"}));
  EXPECT_TRUE(filter.facet_values(ResultsModel::kBackend).contains("blas.openblas"));
  filter.set_facet(ResultsModel::kThreads, {"2"});
  const int two = filter.rowCount();
  EXPECT_GT(two, 0);
  EXPECT_LT(two, all);
  filter.set_facet(ResultsModel::kBackend, {"blas.openblas", "blas.blis"});
  EXPECT_EQ(filter.rowCount(), 2);  // each on 2 threads
  filter.setFilterFixedString("blis");
  EXPECT_EQ(filter.rowCount(), 1);
  filter.setFilterFixedString("");
  filter.set_facet(ResultsModel::kBackend, {});
  EXPECT_EQ(filter.rowCount(), two);
  filter.clear_facets();
  EXPECT_EQ(filter.rowCount(), all);
}

// The text box: a pattern (case-insensitive, RE2: linear time), else the text itself; a
// pattern that sent std::regex into catastrophic backtracking answers at once.
TEST(ResultsFilter, TheTextBoxTakesAPatternOrPlainTextInBoundedTime) {
  ResultsModel model;
  ResultsFilter filter;
  filter.setSourceModel(&model);
  model.set_document(recorded());
  const int all = filter.rowCount();
  filter.set_text("BLAS\\.(openblas|blis)");
  const int vendors = filter.rowCount();
  EXPECT_GT(vendors, 0);
  EXPECT_LT(vendors, all);
  filter.set_text("blas.openblas|(");  // not a pattern: the text as it is, found nowhere
  EXPECT_EQ(filter.rowCount(), 0);
  const auto start = std::chrono::steady_clock::now();
  filter.set_text("((((((((((.*)*)*)*)*)*)*)*)*)*)*Q");
  filter.set_text("([a-z0-9./_=,]+)+Q");
  EXPECT_EQ(filter.rowCount(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  filter.set_text("");
  EXPECT_EQ(filter.rowCount(), all);
}

TEST(ComparisonModel, PassesQtsModelTester) {
  ComparisonModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto doc = recorded();
  auto cmp =
      std::make_shared<const RunComparison>(compare_runs(doc->input.run, doc->input.run, {}));
  model.set_comparison(cmp);
  EXPECT_EQ(model.rowCount(), static_cast<int>(cmp->cases.size()));
  EXPECT_EQ(model.headerData(ComparisonModel::kRatio, Qt::Horizontal).toString(), "new ÷ base");
  // The table compare prints: its verdicts in their colours, each case's reason in a tooltip.
  const RunComparison& c = *cmp;
  const Table table = comparison_rows::verdict_table(c);
  ASSERT_EQ(model.columnCount(), ComparisonModel::kColumns);
  for (int row = 0; row < model.rowCount(); ++row) {
    const auto& cells = table.rows[static_cast<std::size_t>(row)];
    EXPECT_EQ(model.index(row, ComparisonModel::kCase).data().toString().toStdString(),
              cells[ComparisonModel::kCase].text);
    EXPECT_EQ(model.index(row, ComparisonModel::kVerdict)
                  .data(Qt::ForegroundRole)
                  .value<QColor>()
                  .name()
                  .toStdString(),
              cells[ComparisonModel::kVerdict].colour);
    if (!cells[ComparisonModel::kWhy].lines.empty()) {
      EXPECT_TRUE(model.index(row, ComparisonModel::kWhy)
                      .data(Qt::ToolTipRole)
                      .toString()
                      .startsWith(QString::fromStdString(cells[ComparisonModel::kWhy].lines[0])));
    }
  }
  model.set_comparison(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.columnCount(), ComparisonModel::kColumns);
}

TEST(TableModel, TheReportsTablesWithTheirTextAndValues) {
  TableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto doc = recorded();
  ASSERT_TRUE(doc->input.machine.has_value());
  model.set_table(compute_ceilings_table(*doc->input.machine));
  ASSERT_EQ(model.rowCount(), static_cast<int>(doc->input.machine->compute.size()));
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), "measured");
  const ComputeCeiling& first = doc->input.machine->compute.front();
  EXPECT_EQ(model.index(0, 0).data().toString().toStdString(), first.name);
  EXPECT_DOUBLE_EQ(model.index(0, 2).data(TableModel::kSortRole).toDouble(), first.per_second);
  // The same text the HTML report's ceilings table shows.
  const std::string html = html_report(doc->input);
  EXPECT_NE(html.find(">" + model.index(0, 2).data().toString().toStdString() + "</td>"),
            std::string::npos);
  model.set_table(ladder_table(doc->input));
  EXPECT_GT(model.rowCount(), 0);
  EXPECT_EQ(model.headerData(4, Qt::Horizontal).toString(), "× best BLAS");
}

TEST(SweepPainter, DrawsTheSvgsSweepLinesInTheirColours) {
  const MachineModel m =
      read_machine_file(std::string(RIDGELINE_FIXTURES) + "/machine-zen5-vm-levels.json");
  const auto scene = sweep_scene(m);
  ASSERT_TRUE(scene.has_value());
  ASSERT_FALSE(scene->sweeps.empty());
  ASSERT_FALSE(scene->bands.empty());
  // The HTML report's machine section draws the same scene: its first sweep's points.
  const std::string html =
      html_report(make_report_input(ridgeline::Run{}, "x.json", m, "the fixture"));
  const std::string tag = R"(<polyline class="sweep" points=")";
  const auto at = html.find(tag);
  ASSERT_NE(at, std::string::npos);
  std::istringstream points(
      html.substr(at + tag.size(), html.find('"', at + tag.size()) - at - tag.size()));
  const auto& first = scene->sweeps[0];
  std::size_t i = 0;
  for (std::string xy; points >> xy; ++i) {
    ASSERT_LT(i, first.points.size());
    const auto comma = xy.find(',');
    EXPECT_NEAR(std::stod(xy.substr(0, comma)), first.points[i].x, 0.06);
    EXPECT_NEAR(std::stod(xy.substr(comma + 1)), first.points[i].y, 0.06);
  }
  EXPECT_EQ(i, first.points.size());
  // The painted line passes through its points in its colour.
  const QImage image = sweep_image(*scene);
  const QColor want(sweep_colour(first.kernel, first.threads));
  int near = 0;
  for (const auto& pt : first.points) {
    bool hit = false;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy) {
        const QColor c = image.pixelColor(static_cast<int>(pt.x) + dx, static_cast<int>(pt.y) + dy);
        hit |= std::abs(c.red() - want.red()) + std::abs(c.green() - want.green()) +
                   std::abs(c.blue() - want.blue()) <
               60;
      }
    near += hit;
  }
  EXPECT_GT(near, static_cast<int>(first.points.size()) * 3 / 4);
}

TEST(Exports, VisibleRowsSelectionAndTheReportsOwnSvg) {
  const auto doc = recorded();
  ResultsModel model;
  model.set_document(doc);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setFilterKeyColumn(-1);
  proxy.setFilterFixedString("cpu.naive");
  const std::string csv = rows_csv(proxy);
  ASSERT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;  // the header, one row
  EXPECT_EQ(csv.rfind("case,run,op,backend,device,unit,dtype,threads,GFLOP/s,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n\"gemm/cpu.naive/f64/m=64,n=64,k=64/layout=NN/pattern=normal/"
                     "threads=1\",run-smoke-f64-zen4-vm.json,gemm,cpu.naive,"),
            std::string::npos)
      << csv;

  const auto& placements = doc->input.placements;
  const std::string html = selection_report_html(*doc, {0, 1});
  for (std::size_t i = 0; i < placements.size(); ++i)
    // Each case by its compact name, its full name the cell's tooltip.
    EXPECT_EQ(html.find("title=\"" + placements[i].name + "\">") != std::string::npos, i < 2)
        << placements[i].name;
  EXPECT_NE(html.find("the dashboard&#39;s selection: 2 of its cases"), std::string::npos);

  // The chart's SVG is the HTML report's picture of the same scene.
  const MachineModel* machine = doc->input.machine ? &*doc->input.machine : nullptr;
  const RooflineScene scene = roofline_scene(placements, machine, {}, doc->input.fusion.pairs);
  const BackendColours colours = backend_colours(placements);
  const std::string svg = chart_svg(scene, *doc, RooflinePaint{placements, colours});
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(html_report(doc->input).find(svg), std::string::npos);
}

}  // namespace
}  // namespace ridgeline::gui
