// The einsum tab (gui/app/main_window_einsum.cpp) under the offscreen platform: each
// contraction's lowerings and the steps of the one picked, linked to the results and the
// chart; the run's networks first, as their paths tables.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gui_test_files.hpp"
#include "main_window.hpp"
#include "sweep_view.hpp"

namespace ridgeline::gui {
namespace {

using namespace test_files;

// Each contraction's lowerings as the report's einsum table; picking TTGT shows its steps and
// selects its case in the results (and so on the chart).
TEST(EinsumTab, ShowsEachContractionAndTheStepsOfTheLoweringPicked) {
  MainWindow w(false);
  ASSERT_TRUE(
      w.open_files({QString(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json"}).isEmpty());
  QTabWidget* tabs = w.tabs();
  ASSERT_EQ(tabs->tabText(6), "einsum");
  EXPECT_TRUE(tabs->isTabEnabled(6));
  auto* choice = tabs->widget(6)->findChild<QComboBox*>();
  ASSERT_NE(choice, nullptr);
  ASSERT_EQ(choice->count(), 2);
  EXPECT_TRUE(choice->itemText(1).startsWith("btd,hdk->bthk")) << choice->itemText(1).toStdString();
  choice->setCurrentIndex(1);
  choice->setCurrentIndex(0);  // back: the view follows the choice
  ASSERT_TRUE(choice->currentText().startsWith("bthr,bThr->bhtT"));
  const auto views = tabs->widget(6)->findChildren<QTableView*>();
  ASSERT_EQ(views.size(), 2);
  QTableView* lowerings = views[0];
  QTableView* steps = views[1];
  ASSERT_EQ(lowerings->model()->rowCount(), 3);
  EXPECT_EQ(steps->model()->rowCount(), 0);
  const auto* lines = tabs->widget(6)->findChild<QLabel*>();
  ASSERT_NE(lines, nullptr);
  EXPECT_TRUE(lines->text().startsWith("best ")) << lines->text().toStdString();
  EXPECT_TRUE(lines->text().contains("needs A permuted")) << lines->text().toStdString();
  int ttgt = -1;
  for (int r = 0; r < 3; ++r)
    if (lowerings->model()->index(r, 0).data().toString() == "cpu.ttgt") ttgt = r;
  ASSERT_GE(ttgt, 0);
  lowerings->selectRow(ttgt);
  ASSERT_GT(steps->model()->rowCount(), 0);
  EXPECT_EQ(steps->model()->index(0, 0).data().toString(), "permute_A");
  // The permutes beside the machine's sweeps: one mark per permute step, in TTGT's group.
  int permutes = 0;
  for (int r = 0; r < steps->model()->rowCount(); ++r)
    permutes += steps->model()->index(r, 0).data().toString().startsWith("permute") ? 1 : 0;
  const auto* sweep = tabs->widget(6)->findChild<SweepView*>();
  ASSERT_NE(sweep, nullptr);
  EXPECT_FALSE(sweep->isHidden());
  ASSERT_TRUE(sweep->scene().has_value());
  EXPECT_GE(permutes, 1);
  EXPECT_EQ(sweep->scene()->marks.size(), static_cast<std::size_t>(permutes));
  ASSERT_EQ(sweep->scene()->mark_groups.size(), 1u);
  EXPECT_EQ(sweep->scene()->mark_groups[0].name, "cpu.ttgt");
  const auto selected = w.table()->selectionModel()->selectedRows();
  ASSERT_EQ(selected.size(), 1);
  const auto [run, placement] = w.results()->locate(
      static_cast<std::size_t>(w.filter()->mapToSource(selected.front()).row()));
  ASSERT_NE(run, nullptr);
  EXPECT_NE(run->input.placements[placement].name.find("cpu.ttgt/f32/equation=\"bthr,bThr->bhtT\""),
            std::string::npos)
      << run->input.placements[placement].name;
}

// A network the run records comes first in the list, as the report's paths table.
TEST(EinsumTab, ListsTheRunsNetworksFirstWithTheirPaths) {
  QTemporaryDir dir;
  std::ifstream in(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
  nlohmann::json run = nlohmann::json::parse(in);
  run["context"]["ridgeline"]["provenance"]["einsum_networks"] = nlohmann::json::array(
      {{{"equation", "bthr,bThr->bhtT"}, {"extents", "b=2,t=64,h=4,r=32,T=64"}}});
  const QString path = dir.filePath("network.json");
  write(path, run);
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({path}).isEmpty());
  QWidget* tab = w.tabs()->widget(6);
  auto* choice = tab->findChild<QComboBox*>();
  ASSERT_EQ(choice->count(), 3);
  EXPECT_TRUE(choice->itemText(0).contains("contraction paths"))
      << choice->itemText(0).toStdString();
  QTableView* table = tab->findChildren<QTableView*>()[0];
  ASSERT_EQ(table->model()->rowCount(), 1);  // one path: the contraction itself
  EXPECT_EQ(table->model()->headerData(0, Qt::Horizontal).toString(), "path");
  EXPECT_TRUE(tab->findChild<QLabel*>()->text().contains("fewest FLOPs"));
  EXPECT_TRUE(tab->findChild<SweepView*>()->isHidden());  // a network has no permutes
  choice->setCurrentIndex(1);
  EXPECT_EQ(table->model()->rowCount(), 3);  // a contraction's lowerings
}

}  // namespace
}  // namespace ridgeline::gui
