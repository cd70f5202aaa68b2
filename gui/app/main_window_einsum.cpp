// The einsum tab: one contraction at a time (chosen in a list), its lowerings side by side as
// the report's einsum table, the best one's lead and what the notation hides; picking a
// lowering shows its steps where its kernel lapped them (TTGT's permutes and GEMM, each
// against its own roof) and selects its point on the roofline and its row in the results.
// The permutes, which have no FLOPs and so no place on the roofline, are points beside the
// machine's bandwidth sweeps, as in the report.
// The run's networks come first in the list, each as the report's paths table.
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "main_window.hpp"
#include "sweep_view.hpp"

namespace ridgeline::gui {

void MainWindow::build_einsum_tab(QTabWidget* tabs) {
  auto* page = new QWidget(tabs);
  auto* layout = new QVBoxLayout(page);
  einsum_choice_ = new QComboBox(page);
  layout->addWidget(einsum_choice_);
  einsum_table_ = new TableModel(this);
  einsum_view_ = sortable_view(einsum_table_, TableModel::kSortRole, page);
  einsum_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  einsum_view_->setSelectionMode(QAbstractItemView::SingleSelection);
  layout->addWidget(einsum_view_, 3);
  einsum_lines_ = new QLabel(page);
  einsum_lines_->setWordWrap(true);
  einsum_lines_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(einsum_lines_);
  einsum_steps_ = new TableModel(this);
  layout->addWidget(sortable_view(einsum_steps_, TableModel::kSortRole, page), 2);
  einsum_sweep_ = new SweepView(page);
  layout->addWidget(einsum_sweep_, 3);
  einsum_tab_ = tabs->addTab(page, "einsum");
  connect(einsum_choice_, &QComboBox::currentIndexChanged, this, &MainWindow::show_einsum);
  connect(einsum_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &MainWindow::einsum_lowering_selected);
}

void MainWindow::fill_einsum_tab(const ReportInput& in) {
  einsum_ = in.einsum;
  einsum_networks_ = in.einsum_networks;
  const QSignalBlocker quiet(einsum_choice_);
  einsum_choice_->clear();
  for (const EinsumNetworkComparison& n : einsum_networks_)
    einsum_choice_->addItem(QString::fromStdString(einsum_network_title(n)));
  for (const EinsumComparison& c : einsum_)
    einsum_choice_->addItem(QString::fromStdString(einsum_title(c)));
  tabs_->setTabEnabled(einsum_tab_, einsum_choice_->count() > 0);
  show_einsum(einsum_choice_->count() > 0 ? 0 : -1);
}

const EinsumComparison* MainWindow::shown_contraction() const {
  const int i = einsum_choice_->currentIndex() - static_cast<int>(einsum_networks_.size());
  return i >= 0 && i < static_cast<int>(einsum_.size()) ? &einsum_[static_cast<std::size_t>(i)]
                                                        : nullptr;
}

void MainWindow::show_einsum(int index) {
  einsum_steps_->set_table({});
  einsum_table_->set_table({});
  einsum_lines_->clear();
  einsum_sweep_->set_machine(nullptr);
  einsum_sweep_->hide();
  if (index >= 0 && index < static_cast<int>(einsum_networks_.size())) {
    const EinsumNetworkComparison& n = einsum_networks_[static_cast<std::size_t>(index)];
    if (n.error.empty()) einsum_table_->set_table(einsum_paths_table(n));
    QStringList lines;
    for (const std::string& l : einsum_network_lines(n)) lines << QString::fromStdString(l);
    einsum_lines_->setText(lines.join("\n"));
    einsum_view_->resizeColumnsToContents();
    return;
  }
  const EinsumComparison* shown = shown_contraction();
  if (!shown) return;
  const EinsumComparison& c = *shown;
  einsum_table_->set_table(einsum_table(c));
  einsum_view_->resizeColumnsToContents();
  QString lines = QString::fromStdString(einsum_lead(c));
  if (!c.hides.empty()) lines += "\n" + QString::fromStdString(c.hides);
  einsum_lines_->setText(lines);
  const RunDocument* shown_run = model_->document();
  const std::vector<BandwidthMark> marks = einsum_permute_marks(c);
  if (shown_run && shown_run->input.machine && !marks.empty()) {
    einsum_sweep_->set_machine(&*shown_run->input.machine, marks);
    einsum_sweep_->setVisible(einsum_sweep_->scene().has_value());
  }
}

void MainWindow::einsum_lowering_selected() {
  const EinsumComparison* c = shown_contraction();
  const QModelIndexList rows = einsum_view_->selectionModel()->selectedRows();
  if (!c || rows.isEmpty()) return;
  const auto* sorted = static_cast<const QSortFilterProxyModel*>(einsum_view_->model());
  const auto row = static_cast<std::size_t>(sorted->mapToSource(rows.front()).row());
  if (row >= c->lowerings.size()) return;
  const EinsumLowering& l = c->lowerings[row];
  einsum_steps_->set_table(l.passes ? unfused_pass_table(*l.passes) : Table{});
  // The shown run's rows come last in the results (after a comparison's base or the runs
  // overlaid).
  const RunDocument* shown = model_->document();
  if (!l.ran || !shown) return;
  const std::size_t first =
      static_cast<std::size_t>(model_->rowCount()) - shown->input.placements.size();
  select_placement(first + l.placement);
}

}  // namespace ridgeline::gui
