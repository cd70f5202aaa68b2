// The dashboard's window under the offscreen platform: it opens a recorded run, the filter
// removes rows, selection goes from the table to the chart and back, the tooltip is the
// report's, and a bad file is a message, never a crash.
#include "main_window.hpp"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QItemSelectionModel>
#include <QMimeData>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>
#include <QWheelEvent>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gui_test_files.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "roofline_view.hpp"
#include "sweep_view.hpp"

namespace ridgeline::gui {
namespace {

using namespace test_files;

TEST(MainWindow, OpensARunFiltersAndLinksSelectionBothWays) {
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  w.show();
  const auto* doc = w.results()->document();
  ASSERT_NE(doc, nullptr);
  const int rows = static_cast<int>(doc->input.placements.size());
  EXPECT_EQ(w.filter()->rowCount(), rows);
  ASSERT_FALSE(w.roofline()->scene().points.empty());

  // The filter: plain text, then a regular expression.
  const std::size_t all_points = w.roofline()->scene().points.size();
  w.filter()->setFilterFixedString("cpu.naive");
  EXPECT_EQ(w.filter()->rowCount(), 1);
  ASSERT_EQ(w.roofline()->scene().points.size(), 1u);  // the chart draws what the table shows
  EXPECT_EQ(doc->input.placements[w.roofline()->scene().points[0].placement].backend, "cpu.naive");
  w.filter()->setFilterRegularExpression(
      QRegularExpression("blas\\.(openblas|blis)", QRegularExpression::CaseInsensitiveOption));
  EXPECT_EQ(w.filter()->rowCount(), 4);  // two of each, f64 on 1 and 2 threads
  w.filter()->setFilterFixedString("");
  EXPECT_EQ(w.roofline()->scene().points.size(), all_points);

  // Table -> chart: the selected row's placement is highlighted.
  const QModelIndex first = w.filter()->index(2, 0);
  const auto placement = static_cast<std::size_t>(first.data(ResultsModel::kPlacementRole).toInt());
  w.table()->selectionModel()->select(
      first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  EXPECT_EQ(w.roofline()->selected(), std::set<std::size_t>{placement});
  // ... and the details pane describes it.
  EXPECT_TRUE(w.details()->toPlainText().contains(
      QString::fromStdString(doc->input.placements[placement].name)));
  // Chart -> table: clicking a point selects its row.
  const ScenePoint pt = w.roofline()->scene().points.back();
  emit w.roofline()->placementClicked(pt.placement);
  const auto selected = w.table()->selectionModel()->selectedRows();
  ASSERT_EQ(selected.size(), 1);
  EXPECT_EQ(static_cast<std::size_t>(selected[0].data(ResultsModel::kPlacementRole).toInt()),
            pt.placement);

  // The tooltip at a point: the report's lines for its case.
  const QString tip = w.roofline()->tooltip_at(QPointF(pt.x, pt.y));
  EXPECT_TRUE(tip.contains("GFLOP/s")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("intensity")) << tip.toStdString();
  EXPECT_TRUE(w.roofline()->tooltip_at(QPointF(1, 1)).isEmpty());
}

TEST(MainWindow, AShiftDragSelectsThePointsInItsRectangle) {
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  w.show();
  RooflineView* view = w.roofline();
  const SceneCanvas& c = view->scene().canvas;
  // Around the upper half of the points only: those at or above the median rate.
  std::vector<double> ys;
  for (const auto& pt : view->scene().points) ys.push_back(pt.y);
  std::sort(ys.begin(), ys.end());
  const double cut = ys[ys.size() / 2];
  std::set<std::size_t> expected;
  for (const auto& pt : view->scene().points)
    if (pt.y <= cut) expected.insert(pt.placement);
  const QPoint from(static_cast<int>(c.plot_left()) + 1, static_cast<int>(c.plot_top()) + 1);
  const QPoint to(static_cast<int>(c.plot_right()) - 1, static_cast<int>(cut) + 1);
  QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier, from);
  QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton,
                   Qt::LeftButton, Qt::ShiftModifier);
  QApplication::sendEvent(view, &move);
  QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier, to);
  QTest::keyRelease(view, Qt::Key_Shift);  // no Shift left held for the tests after this
  std::set<std::size_t> selected;
  for (const QModelIndex& row : w.table()->selectionModel()->selectedRows())
    selected.insert(static_cast<std::size_t>(row.data(ResultsModel::kPlacementRole).toInt()));
  EXPECT_EQ(selected, expected);
  EXPECT_FALSE(view->window().has_value());  // a band is no pan
}

TEST(MainWindow, TheMachineAndLadderTabsShowTheRunsTables) {
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  QTabWidget* tabs = w.tabs();
  QStringList names;
  for (int i = 0; i < tabs->count(); ++i) names << tabs->tabText(i);
  EXPECT_EQ(names, (QStringList{"Overview", "Results", "Verdicts", "Machine", "Ladder",
                                "Input patterns", "einsum"}));
  // It opens on the report's first screen.
  EXPECT_EQ(tabs->currentIndex(), 0);
  auto* overview = qobject_cast<QTextBrowser*>(tabs->widget(0));
  ASSERT_NE(overview, nullptr);
  const QString glance = overview->toPlainText();
  EXPECT_TRUE(glance.contains("At a glance")) << glance.toStdString();
  EXPECT_TRUE(glance.contains("Best kernel per op"));
  EXPECT_TRUE(glance.contains("Needs attention"));
  EXPECT_FALSE(tabs->isTabEnabled(2));  // nothing compared
  EXPECT_TRUE(tabs->isTabEnabled(3));   // the run carries its machine model
  EXPECT_TRUE(tabs->isTabEnabled(4));   // BLAS libraries beside the ladder
  EXPECT_FALSE(tabs->isTabEnabled(5));  // one pattern only
  EXPECT_FALSE(tabs->isTabEnabled(6));  // no einsum cases
  auto* ladder = qobject_cast<QTableView*>(tabs->widget(4));
  ASSERT_NE(ladder, nullptr);
  EXPECT_GT(ladder->model()->rowCount(), 0);
  // The recorded Zen 4 model has no sweep; the Zen 5 one has, and its plot is drawn (the
  // Machine tab's; the einsum tab has one of its own).
  auto* sweep = tabs->widget(3)->findChild<SweepView*>();
  ASSERT_NE(sweep, nullptr);
  EXPECT_FALSE(sweep->scene().has_value());
  EXPECT_EQ(w.use_ceilings_from(QString(RIDGELINE_FIXTURES) + "/machine-zen5-vm-levels.json"), "");
  ASSERT_TRUE(sweep->scene().has_value());
  EXPECT_FALSE(sweep->scene()->sweeps.empty());
}

TEST(MainWindow, ABadFileIsOneLineAndNothingElseChanges) {
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  const QString missing = QString(RIDGELINE_FIXTURES) + "/no-such-run.json";
  const QString console = QString(RIDGELINE_FIXTURES) + "/gbench-1.7.1-console.txt";
  const QStringList errors = w.open_files({missing, console});
  ASSERT_EQ(errors.size(), 2);
  EXPECT_TRUE(errors[0].startsWith(missing)) << errors[0].toStdString();
  EXPECT_TRUE(errors[1].contains("console output")) << errors[1].toStdString();
  for (const QString& e : errors) EXPECT_FALSE(e.contains('\n'));
  // The run opened before is still the one shown.
  ASSERT_NE(w.results()->document(), nullptr);
  EXPECT_EQ(QString::fromStdString(w.results()->document()->path), kRun);
  EXPECT_FALSE(w.use_ceilings_from(missing).isEmpty());
}

// Lines of a journal: the recorded run's benchmark entries, one per line.
std::vector<std::string> journal_lines() {
  const nlohmann::json run = recorded_run();
  std::vector<std::string> lines;
  for (const auto& b : run["benchmarks"]) lines.push_back(b.dump() + "\n");
  return lines;
}

TEST(MainWindow, AJournalStillBeingWrittenGainsPointsAsLinesAreAppended) {
  QTemporaryDir dir;
  const QString journal = dir.filePath("run.jsonl");
  const auto lines = journal_lines();
  ASSERT_GE(lines.size(), 5u);
  {
    std::ofstream out(journal.toStdString());
    for (int i = 0; i < 3; ++i) out << lines[static_cast<std::size_t>(i)];
  }
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({journal}).isEmpty());
  ASSERT_EQ(w.results()->rowCount(), 3);
  {
    std::ofstream out(journal.toStdString(), std::ios::app);
    out << lines[3] << lines[4];
  }
  EXPECT_TRUE(QTest::qWaitFor([&] { return w.results()->rowCount() == 5; }, 5000))
      << w.results()->rowCount();
  EXPECT_EQ(w.roofline()->scene().points.size(), 5u);  // no machine: every level's point
  // A half-written line (the runner is mid-write) is left out until it is whole.
  {
    std::ofstream out(journal.toStdString(), std::ios::app);
    out << lines[5].substr(0, 20);
  }
  QTest::qWait(400);
  EXPECT_EQ(w.results()->rowCount(), 5);
}

TEST(MainWindow, DroppedFilesOpen) {
  MainWindow w(false);
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(kRun)});
  w.show();
  // As a drag arrives: it enters (and is accepted), then it is dropped.
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &drop);
  ASSERT_NE(w.results()->document(), nullptr);
  EXPECT_EQ(QString::fromStdString(w.results()->document()->path), kRun);
}

TEST(MainWindow, RoofsToggleColoursChangeAndEveryExportIsWritten) {
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  RooflineView* view = w.roofline();
  const auto lines_of = [&](SceneLine::Kind kind, const std::string& what) {
    int n = 0;
    for (const auto& l : view->scene().lines) n += l.kind == kind && l.level == what;
    return n;
  };
  EXPECT_EQ(view->roof_levels(), (std::vector<std::string>{"L1", "L2", "L3", "DRAM"}));
  ASSERT_GT(lines_of(SceneLine::Kind::memory, "L1"), 0);
  const auto points = view->scene().points.size();
  view->set_hidden({{"L1"}, {"f64"}, {}});
  EXPECT_EQ(lines_of(SceneLine::Kind::memory, "L1"), 0);
  EXPECT_GT(lines_of(SceneLine::Kind::memory, "DRAM"), 0);
  EXPECT_EQ(lines_of(SceneLine::Kind::compute, "f64"), 0);
  EXPECT_EQ(view->scene().points.size(), points);  // the points stay
  view->set_hidden({});
  EXPECT_GT(lines_of(SceneLine::Kind::compute, "f64"), 0);
  // An ISA off: each dtype's roof is its next best ISA's peak.
  const auto peaks = [&] {
    std::set<std::string> names;
    for (const auto& l : view->scene().lines)
      if (l.kind == SceneLine::Kind::compute) names.insert(l.ceiling);
    return names;
  };
  EXPECT_EQ(view->roof_isas(),
            (std::vector<std::string>{"scalar", "avx2", "avx512", "avx512_bf16", "avx512_vnni"}));
  EXPECT_TRUE(peaks().count("f64.avx512.fma"));  // Zen 4: avx2 as fast at 2 threads
  view->set_hidden({{}, {}, {"avx512"}});
  EXPECT_EQ(peaks(), (std::set<std::string>{"f64.avx2.fma"}));
  view->set_hidden({{}, {}, {"avx512", "avx2"}});
  EXPECT_EQ(peaks(), (std::set<std::string>{"f64.scalar.fma"}));
  view->set_hidden({});

  EXPECT_TRUE(view->legend_html().contains("cpu.naive"));
  view->set_colour_by(ColourBy::op);
  EXPECT_TRUE(view->legend_html().contains("gemm"));
  EXPECT_FALSE(view->legend_html().contains("cpu.naive"));

  QTemporaryDir dir;
  EXPECT_EQ(w.export_png(dir.filePath("chart.png")), "");
  EXPECT_FALSE(QImage(dir.filePath("chart.png")).isNull());
  EXPECT_EQ(w.export_svg(dir.filePath("chart.svg")), "");
  EXPECT_EQ(w.export_csv(dir.filePath("rows.csv")), "");
  // Nothing selected: said so, nothing written.
  EXPECT_FALSE(w.export_selection_html(dir.filePath("sel.html")).isEmpty());
  EXPECT_FALSE(QFile::exists(dir.filePath("sel.html")));
  w.table()->selectRow(0);
  EXPECT_EQ(w.export_selection_html(dir.filePath("sel.html")), "");
  for (const char* name : {"chart.svg", "rows.csv", "sel.html"}) {
    QFile f(dir.filePath(name));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << name;
    EXPECT_GT(f.size(), 100) << name;
  }
  // A folder that does not exist: the reason, nothing else.
  EXPECT_FALSE(w.export_csv(dir.filePath("no/such/rows.csv")).isEmpty());
}

TEST(RooflineView, ZoomPanUndoAndResetByWheelKeysAndDrag) {
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  w.show();
  RooflineView* view = w.roofline();
  const auto span = [&] { return std::log10(view->scene().x.hi / view->scene().x.lo); };
  const auto x_lo = [&] { return std::log10(view->scene().x.lo); };
  const double fitted = span(), fitted_lo = x_lo();
  const SceneCanvas& c = view->scene().canvas;
  const QPointF centre((c.plot_left() + c.plot_right()) / 2, (c.plot_top() + c.plot_bottom()) / 2);

  view->zoom(2, centre);
  EXPECT_NEAR(span(), fitted / 2, 1e-9);
  EXPECT_NEAR(x_lo(), fitted_lo + fitted / 4, 1e-9);    // about the centre
  view->pan(-(c.plot_right() - c.plot_left()) / 2, 0);  // half a plot to the left: data moves
  EXPECT_NEAR(x_lo(), fitted_lo + fitted / 2, 1e-6);
  view->undo_zoom();
  EXPECT_NEAR(x_lo(), fitted_lo + fitted / 4, 1e-9);
  view->undo_zoom();
  EXPECT_FALSE(view->window().has_value());
  EXPECT_NEAR(span(), fitted, 1e-9);

  // The wheel zooms in about the pointer; + zooms in; Home resets.
  QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(view, &wheel);
  EXPECT_NEAR(span(), fitted / 1.25, 1e-9);
  QTest::keyClick(view, Qt::Key_Plus);
  EXPECT_NEAR(span(), fitted / 1.25 / 1.25, 1e-9);
  QTest::keyClick(view, Qt::Key_Home);
  EXPECT_FALSE(view->window().has_value());

  // A drag on empty space pans, as one undo step.
  const QPoint empty(static_cast<int>(c.plot_left()) + 5, static_cast<int>(c.plot_top()) + 5);
  ASSERT_FALSE(hit_test(view->scene(), empty).has_value());
  QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, empty);
  for (int dx : {10, 40, 80}) {
    QMouseEvent move(QEvent::MouseMove, QPointF(empty + QPoint(dx, 0)),
                     view->mapToGlobal(QPointF(empty + QPoint(dx, 0))), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view, &move);
  }
  QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, empty + QPoint(80, 0));
  const double per_px = fitted / (c.plot_right() - c.plot_left());
  EXPECT_NEAR(x_lo(), fitted_lo - 80 * per_px, 1e-6);
  view->undo_zoom();
  EXPECT_FALSE(view->window().has_value());
}

TEST(MainWindow, ComparesTwoOpenRunsOnOneChartWithTheirVerdicts) {
  // The recorded run, and a copy of it with cpu.naive three times slower.
  QTemporaryDir dir;
  const QString slow = dir.filePath("slow.json");
  {
    nlohmann::json run = recorded_run();
    for (auto& b : run["benchmarks"])
      if (b["ridgeline"]["backend"] == "cpu.naive") {
        b["real_time"] = b["real_time"].get<double>() * 3;
        b["cpu_time"] = b["cpu_time"].get<double>() * 3;
      }
    write(slow, run);
  }
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun, slow}).isEmpty());
  const std::size_t cases = w.results()->document()->input.placements.size();
  EXPECT_EQ(w.verdicts()->rowCount(), 0);
  w.compare_with(0);  // the recorded run is the base of the one shown
  EXPECT_EQ(w.verdicts()->rowCount(), static_cast<int>(cases));
  // The largest effect first: cpu.naive, 3x slower; one repetition each: inconclusive.
  EXPECT_TRUE(
      w.verdicts()->index(0, ComparisonModel::kCase).data().toString().contains("cpu.naive"));
  EXPECT_EQ(w.verdicts()->index(0, ComparisonModel::kRatio).data().toString(), "3.000");
  EXPECT_EQ(w.verdicts()->index(0, ComparisonModel::kVerdict).data().toString(), "INCONCLUSIVE");

  RooflineView* view = w.roofline();
  const RooflinePaint paint = view->paint();
  EXPECT_EQ(paint.base_count, cases);
  EXPECT_EQ(view->scene().points.size(), 2 * cases);  // both runs
  ASSERT_EQ(view->scene().arrows.size(), 1u);         // only cpu.naive moved
  ASSERT_EQ(paint.arrow_colours.size(), 1u);
  EXPECT_EQ(paint.arrow_colours[0], "#f08c00");  // inconclusive's colour
  const ScenePoint base_point = view->scene().points.front();
  ASSERT_LT(base_point.placement, cases);
  EXPECT_TRUE(view->tooltip_at(QPointF(base_point.x, base_point.y)).startsWith("base: "));

  view->set_colour_by(ColourBy::run);  // the two runs apart
  EXPECT_TRUE(view->legend_html().contains("base run"));
  EXPECT_TRUE(view->legend_html().contains("new run"));
  EXPECT_EQ(view->paint().colours.size(), 2u);

  w.compare_with(-1);
  EXPECT_EQ(view->paint().base_count, 0u);
  EXPECT_EQ(view->paint().colours.size(), 1u);  // "this run"
  EXPECT_EQ(view->scene().points.size(), cases);
  EXPECT_EQ(w.verdicts()->rowCount(), 0);
}

}  // namespace
}  // namespace ridgeline::gui
