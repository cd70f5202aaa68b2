// The Overview (the report's first screen), Machine, Ladder and Input patterns tabs: the report's
// tables (reports/tables.hpp) of the run shown, each sortable, and the machine's memory sweep plot.
// The einsum tab after them is main_window_einsum.cpp.
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "main_window.hpp"
#include "ridgeline/reports/overview.hpp"
#include "sweep_view.hpp"

namespace ridgeline::gui {

QTableView* sortable_view(QAbstractItemModel* model, int sort_role, QWidget* parent) {
  auto* sorted = new QSortFilterProxyModel(parent);
  sorted->setSourceModel(model);
  sorted->setSortRole(sort_role);
  auto* view = new QTableView(parent);
  view->setModel(sorted);
  // The table's own order (the report's) until a header is clicked: Qt would otherwise sort
  // by the first column, descending.
  view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  view->setSortingEnabled(true);
  view->horizontalHeader()->setStretchLastSection(true);
  view->verticalHeader()->hide();
  return view;
}

void MainWindow::build_table_tabs(QTabWidget* tabs) {
  auto* machine = new QWidget(tabs);
  auto* layout = new QVBoxLayout(machine);
  sweep_ = new SweepView(machine);
  layout->addWidget(sweep_, 2);
  for (int i = 0; i < 3; ++i) {
    machine_tables_[i] = new TableModel(this);
    layout->addWidget(sortable_view(machine_tables_[i], TableModel::kSortRole, machine), 1);
  }
  machine_tab_ = tabs->addTab(machine, "Machine");
  ladder_table_ = new TableModel(this);
  ladder_tab_ = tabs->addTab(sortable_view(ladder_table_, TableModel::kSortRole, tabs), "Ladder");
  // Each case per input pattern, and below it what the GPU sustained at its power cap.
  auto* patterns = new QWidget(tabs);
  auto* pattern_layout = new QVBoxLayout(patterns);
  pattern_table_ = new TableModel(this);
  pattern_layout->addWidget(sortable_view(pattern_table_, TableModel::kSortRole, patterns), 3);
  power_cap_table_ = new TableModel(this);
  pattern_layout->addWidget(sortable_view(power_cap_table_, TableModel::kSortRole, patterns), 1);
  pattern_tab_ = tabs->addTab(patterns, "Input patterns");
  build_einsum_tab(tabs);
}

void MainWindow::fill_table_tabs(const RunDocument& doc) {
  const ReportInput& in = doc.input;
  overview_->setHtml(QString::fromStdString(
      "<style>table{border-collapse:collapse}th,td{padding:1px 6px}h3{margin:6px 0 2px}</style>" +
      overview_html(in)));
  const MachineModel empty;
  const MachineModel& m = in.machine ? *in.machine : empty;
  machine_tables_[0]->set_table(compute_ceilings_table(m));
  machine_tables_[1]->set_table(memory_ceilings_table(m));
  machine_tables_[2]->set_table(measured_levels_table(m));
  sweep_->set_machine(in.machine ? &*in.machine : nullptr);
  tabs_->setTabEnabled(machine_tab_, in.machine.has_value());
  ladder_table_->set_table(ladder_table(in));
  tabs_->setTabEnabled(ladder_tab_, !in.ladder.empty());
  pattern_table_->set_table(pattern_table(in));
  power_cap_table_->set_table(power_cap_table(in));
  tabs_->setTabEnabled(pattern_tab_, !in.patterns.empty());
  fill_einsum_tab(in);
}

}  // namespace ridgeline::gui
