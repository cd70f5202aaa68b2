// Two open runs compared: "compare with" picks the base, the chart shows both (the base
// hollow, an arrow per moved case coloured by verdict) and the Verdicts tab the table
// `ridgeline compare` prints, from the same compare_runs at its defaults.
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

#include "main_window.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {

void MainWindow::build_compare(QHBoxLayout* bar, QTabWidget* tabs) {
  compare_ = new QComboBox(this);
  compare_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  bar->addWidget(new QLabel("compare with:", this));
  bar->addWidget(compare_);
  connect(compare_, &QComboBox::activated, this,
          [this](int item) { compare_with(compare_->itemData(item).toInt()); });
  verdicts_model_ = new ComparisonModel(this);
  QTableView* table = sortable_view(verdicts_model_, ComparisonModel::kSortRole, tabs);
  tabs->addTab(table, "Verdicts");
  tabs->setTabEnabled(1, false);
}

// "—" and every open run but the one shown.
void MainWindow::fill_compare_choices() {
  const QSignalBlocker quiet(compare_);
  compare_->clear();
  compare_->addItem("—", -1);
  for (int i = 0; i < static_cast<int>(documents_.size()); ++i)
    if (i != runs_->currentIndex()) compare_->addItem(runs_->itemText(i), i);
  compare_->setEnabled(compare_->count() > 1);
}

void MainWindow::compare_with(int base_index) {
  const int head_index = runs_->currentIndex();
  if (base_index < 0 || base_index >= static_cast<int>(documents_.size()) || head_index < 0 ||
      base_index == head_index) {
    view_->set_comparison(nullptr, nullptr);
    verdicts_model_->set_comparison(nullptr);
    tabs_->setTabEnabled(1, false);
    legend_->setText(view_->legend_html());
    return;
  }
  const auto& base = documents_[static_cast<std::size_t>(base_index)];
  const auto& head = documents_[static_cast<std::size_t>(head_index)];
  auto cmp =
      std::make_shared<const RunComparison>(compare_runs(base->input.run, head->input.run, {}));
  view_->set_comparison(base, cmp);
  verdicts_model_->set_comparison(cmp);
  tabs_->setTabEnabled(1, true);
  legend_->setText(view_->legend_html() + "; hollow: the base run, arrows coloured by verdict");
  int failing = 0;
  for (const auto& c : cmp->cases) failing += fails(c, FailOn::regression);
  statusBar()->showMessage(
      QString("%1 against %2: %3 compared cases, %4 failing the default gate")
          .arg(QString::fromStdString(head->path), QString::fromStdString(base->path))
          .arg(cmp->cases.size())
          .arg(failing));
}

}  // namespace ridgeline::gui
