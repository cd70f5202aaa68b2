// The dashboard's window under the offscreen platform: it opens a recorded run, the filter
// removes rows, selection goes from the table to the chart and back, the tooltip is the
// report's, and a bad file is a message, never a crash.
#include "main_window.hpp"

#include <gtest/gtest.h>

#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextBrowser>

#include "roofline_view.hpp"

namespace ridgeline::gui {
namespace {

const QString kRun = QString(RIDGELINE_FIXTURES) + "/run-smoke-f64-zen4-vm.json";

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
  w.filter()->setFilterFixedString("cpu.naive");
  EXPECT_EQ(w.filter()->rowCount(), 1);
  w.filter()->setFilterRegularExpression(
      QRegularExpression("blas\\.(openblas|blis)", QRegularExpression::CaseInsensitiveOption));
  EXPECT_EQ(w.filter()->rowCount(), 4);  // two of each, f64 on 1 and 2 threads
  w.filter()->setFilterFixedString("");

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

}  // namespace
}  // namespace ridgeline::gui
