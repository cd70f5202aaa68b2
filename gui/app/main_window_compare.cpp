// Two open runs compared: "compare with" picks the base, the chart shows both (the base
// hollow, an arrow per moved case coloured by verdict) and the Verdicts tab the table
// `ridgeline compare` prints, from the same compare_runs, with its options chosen above the
// table: --threshold (a fraction, or a thresholds file from compare --calibrate), --alpha and
// --fail-on.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "main_window.hpp"
#include "ridgeline/analysis/calibration.hpp"
#include "ridgeline/core/thresholds.hpp"
#include "ridgeline/gui/shown_text.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {

void MainWindow::build_compare(QHBoxLayout* bar, QTabWidget* tabs) {
  compare_ = new QComboBox(this);
  compare_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  bar->addWidget(new QLabel("compare with:", this));
  bar->addWidget(compare_);
  connect(compare_, &QComboBox::activated, this,
          [this](int item) { compare_with(compare_->itemData(item).toInt()); });

  auto* page = new QWidget(tabs);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* options = new QHBoxLayout;
  threshold_ = new QDoubleSpinBox(page);
  threshold_->setRange(0.1, 99);
  threshold_->setDecimals(1);
  threshold_->setSuffix(" %");
  threshold_->setValue(5);
  threshold_->setToolTip("--threshold: the smallest change that counts");
  alpha_ = new QDoubleSpinBox(page);
  alpha_->setRange(0.001, 0.5);
  alpha_->setDecimals(3);
  alpha_->setSingleStep(0.01);
  alpha_->setValue(0.05);
  alpha_->setToolTip("--alpha: family-wise significance level, Holm-corrected over all cases");
  gate_ = new QComboBox(page);
  gate_->addItems({"regression", "inconclusive", "change"});
  gate_->setToolTip("--fail-on: what fails the gate");
  auto* file = new QPushButton("Thresholds file…", page);
  file->setToolTip("a threshold per case, written by ridgeline compare --calibrate");
  thresholds_file_ = new QLabel(page);
  options->addWidget(new QLabel("threshold:", page));
  options->addWidget(threshold_);
  options->addWidget(file);
  options->addWidget(thresholds_file_);
  options->addWidget(new QLabel("alpha:", page));
  options->addWidget(alpha_);
  options->addWidget(new QLabel("fail on:", page));
  options->addWidget(gate_);
  options->addStretch(1);
  layout->addLayout(options);
  verdicts_model_ = new ComparisonModel(this);
  layout->addWidget(sortable_view(verdicts_model_, ComparisonModel::kSortRole, page), 1);
  verdicts_tab_ = tabs->addTab(page, "Verdicts");
  tabs->setTabEnabled(verdicts_tab_, false);

  const auto again = [this] { compare_with(compared_base_); };
  connect(threshold_, &QDoubleSpinBox::valueChanged, this, again);
  connect(alpha_, &QDoubleSpinBox::valueChanged, this, again);
  connect(gate_, &QComboBox::currentIndexChanged, this, again);
  connect(file, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Thresholds from compare --calibrate",
                                                      {}, "Thresholds (*.json);;All files (*)");
    if (path.isEmpty()) return;
    if (const QString error = use_thresholds_file(path); !error.isEmpty())
      QMessageBox::warning(this, "Ridgeline", error);
  });
}

QString MainWindow::use_thresholds_file(const QString& path) {
  if (path.isEmpty()) {
    thresholds_.reset();
    thresholds_file_->clear();
  } else {
    try {
      thresholds_ = read_thresholds_file(path.toStdString());
    } catch (const std::exception& e) {  // InputError: one line naming the file
      return QString::fromStdString(e.what());
    }
    thresholds_file_->setText(
        QString("%1 (%2 cases)").arg(shown(path)).arg(thresholds_->cases.size()));
  }
  // A file sets every case's threshold (its default for the cases it does not list).
  threshold_->setEnabled(!thresholds_);
  compare_with(compared_base_);
  return {};
}

ComparisonSettings MainWindow::comparison_settings() const {
  ComparisonSettings settings;
  settings.threshold = threshold_->value() / 100;
  if (thresholds_) apply_thresholds(*thresholds_, settings);
  settings.alpha = alpha_->value();
  return settings;
}

// "—" and every open run but the one shown.
void MainWindow::fill_compare_choices() {
  const QSignalBlocker quiet(compare_);
  compare_->clear();
  compare_->addItem("—", -1);
  for (int i = 0; i < static_cast<int>(documents_.size()); ++i)
    if (i != runs_->currentIndex()) compare_->addItem(runs_->itemText(i), i);
  compare_->setCurrentIndex(std::max(0, compare_->findData(compared_base_)));
  compare_->setEnabled(compare_->count() > 1);
}

void MainWindow::compare_with(int base_index) {
  const int head_index = runs_->currentIndex();
  if (base_index < 0 || base_index >= static_cast<int>(documents_.size()) || head_index < 0 ||
      base_index == head_index) {
    compared_base_ = -1;
    view_->set_comparison(nullptr, nullptr);
    verdicts_model_->set_comparison(nullptr);
    tabs_->setTabEnabled(verdicts_tab_, false);
    legend_->setText(view_->legend_html());
    return;
  }
  compared_base_ = base_index;
  overlay({});  // one or the other on the chart
  const auto& base = documents_[static_cast<std::size_t>(base_index)];
  const auto& head = documents_[static_cast<std::size_t>(head_index)];
  auto cmp = std::make_shared<const RunComparison>(
      compare_runs(base->input.run, head->input.run, comparison_settings()));
  view_->set_comparison(base, cmp);
  verdicts_model_->set_comparison(cmp);
  tabs_->setTabEnabled(verdicts_tab_, true);
  legend_->setText(view_->legend_html() + "; hollow: the base run, arrows coloured by verdict");
  const FailOn on = parse_fail_on(gate_->currentText().toStdString()).value_or(FailOn::regression);
  int failing = 0;
  for (const auto& c : cmp->cases) failing += fails(c, on);
  statusBar()->showMessage(
      QString("%1 against %2: %3 compared cases, %4 failing --fail-on %5%6")
          .arg(QString::fromStdString(head->path), QString::fromStdString(base->path))
          .arg(cmp->cases.size())
          .arg(failing)
          .arg(gate_->currentText())
          .arg(gate_fails(*cmp, on) ? ": the gate fails" : ""));
}

}  // namespace ridgeline::gui
