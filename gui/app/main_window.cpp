#include "main_window.hpp"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <set>
#include <utility>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/gui/case_details.hpp"
#include "ridgeline/gui/shown_text.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {

MainWindow::MainWindow(bool remember_layout, QWidget* parent)
    : QMainWindow(parent), remember_layout_(remember_layout) {
  setWindowTitle("Ridgeline");
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  auto* bar = new QHBoxLayout;
  runs_ = new QComboBox(central);
  runs_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  filter_text_ = new QLineEdit(central);
  filter_text_->setPlaceholderText("filter the cases: text or regular expression");
  filter_text_->setClearButtonEnabled(true);
  bar->addWidget(new QLabel("run:", central));
  bar->addWidget(runs_);
  bar->addWidget(filter_text_, 1);
  layout->addLayout(bar);
  // The facets: one choice per column, "any" by default.
  auto* facets = new QHBoxLayout;
  for (int column :
       {ResultsModel::kOp, ResultsModel::kBackend, ResultsModel::kDevice, ResultsModel::kDtype,
        ResultsModel::kThreads, ResultsModel::kDisposition, ResultsModel::kBound}) {
    auto* box = new QComboBox(central);
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    facets->addWidget(box);
    facets_.emplace_back(column, box);
    connect(box, &QComboBox::activated, this, [this, column, box](int index) {
      proxy_->set_facet(column, index <= 0 ? QStringList{} : QStringList{box->itemText(index)});
    });
  }
  facets->addStretch(1);
  layout->addLayout(facets);

  sides_ = new QSplitter(Qt::Horizontal, central);
  splitter_ = new QSplitter(Qt::Vertical, sides_);
  auto* chart = new QWidget(splitter_);
  auto* chart_layout = new QVBoxLayout(chart);
  chart_layout->setContentsMargins(0, 0, 0, 0);
  view_ = new RooflineView(chart);
  legend_ = new QLabel(chart);
  legend_->setWordWrap(true);
  // Top-aligned: a wrapped label given too little height must not spill onto the chart.
  legend_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  chart_layout->addWidget(view_, 1);
  chart_layout->addWidget(legend_);
  tabs_ = new QTabWidget(splitter_);
  // The report's first screen opens the dashboard too: where to look, then the results.
  overview_ = new QTextBrowser(tabs_);
  tabs_->addTab(overview_, "Overview");
  table_ = new QTableView(tabs_);
  tabs_->addTab(table_, "Results");
  build_compare(bar, tabs_);
  build_table_tabs(tabs_);
  model_ = new ResultsModel(this);
  proxy_ = new ResultsFilter(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(ResultsModel::kSortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  splitter_->addWidget(chart);
  splitter_->addWidget(tabs_);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 2);
  details_ = new QTextBrowser(sides_);
  details_->setHtml(QString::fromStdString(details_html({})));
  sides_->addWidget(splitter_);
  sides_->addWidget(details_);
  sides_->setStretchFactor(0, 3);
  sides_->setStretchFactor(1, 1);
  layout->addWidget(sides_, 1);
  setCentralWidget(central);

  build_file_menu();
  build_view_menu();
  // The chart draws what the table shows.
  const auto filtered = [this] {
    if (proxy_->rowCount() == model_->rowCount()) return view_->set_visible(std::nullopt);
    std::set<std::size_t> rows;
    for (int r = 0; r < proxy_->rowCount(); ++r)
      rows.insert(
          static_cast<std::size_t>(proxy_->index(r, 0).data(ResultsModel::kPlacementRole).toInt()));
    view_->set_visible(std::move(rows));
  };
  connect(proxy_, &QAbstractItemModel::rowsInserted, this, filtered);
  connect(proxy_, &QAbstractItemModel::rowsRemoved, this, filtered);
  connect(proxy_, &QAbstractItemModel::modelReset, this, filtered);
  connect(proxy_, &QAbstractItemModel::layoutChanged, this, filtered);
  connect(runs_, &QComboBox::currentIndexChanged, this, &MainWindow::show_document);
  connect(filter_text_, &QLineEdit::textChanged, proxy_, &ResultsFilter::set_text);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &MainWindow::table_selection_changed);
  connect(view_, &RooflineView::placementClicked, this, &MainWindow::select_placement);
  connect(view_, &RooflineView::placementsBanded, this, &MainWindow::select_placements);

  watch_files();
  setAcceptDrops(true);

  resize(1280, 860);
  if (remember_layout_) {
    QSettings settings("Ridgeline", "ridgeline-gui");
    restoreGeometry(settings.value("geometry").toByteArray());
    splitter_->restoreState(settings.value("splitter").toByteArray());
    sides_->restoreState(settings.value("sides").toByteArray());
  }
  statusBar()->showMessage("File → Open a Run, its .jsonl journal or Google Benchmark JSON");
}

void MainWindow::show_document(int index) {
  if (index < 0 || index >= static_cast<int>(documents_.size())) return;
  const auto& doc = documents_[static_cast<std::size_t>(index)];
  view_->set_document(doc);  // first: the model's reset tells the chart what the filter passes
  model_->set_document(doc);
  table_->resizeColumnsToContents();
  details_->setHtml(QString::fromStdString(details_html({})));
  compare_with(-1);
  fill_compare_choices();
  overlay({});
  fill_overlay_menu();
  fill_table_tabs(*doc);
  fill_facets();
  fill_roofs_menu();
  legend_->setText(view_->legend_html());
  std::size_t placed = 0;
  for (const auto& p : doc->input.placements) placed += p.placeable;
  statusBar()->showMessage(QString("%1: %2 cases, %3 placed; ceilings from %4")
                               .arg(QString::fromStdString(doc->path))
                               .arg(doc->input.placements.size())
                               .arg(placed)
                               .arg(QString::fromStdString(doc->input.machine_origin)));
  setWindowTitle("Ridgeline — " + shown(doc->path));
}

std::set<std::size_t> MainWindow::selected_placements() const {
  std::set<std::size_t> selected;
  for (const QModelIndex& row : table_->selectionModel()->selectedRows())
    selected.insert(static_cast<std::size_t>(
        proxy_->mapToSource(row).data(ResultsModel::kPlacementRole).toInt()));
  return selected;
}

void MainWindow::table_selection_changed() {
  std::set<std::size_t> selected = selected_placements();
  const auto [run, placement] = selected.empty() ? std::pair<const RunDocument*, std::size_t>{}
                                                 : model_->locate(*selected.begin());
  details_->setHtml(QString::fromStdString(
      details_html(run ? describe_case(run->input, placement) : CaseDescription{})));
  view_->set_selected(std::move(selected));
}

void MainWindow::select_placement(std::size_t placement) {
  select_placements({placement});
  const QModelIndex row = proxy_->mapFromSource(model_->index(static_cast<int>(placement), 0));
  if (row.isValid()) table_->scrollTo(row);  // else filtered out of the table
}

void MainWindow::select_placements(const std::set<std::size_t>& placements) {
  QItemSelection rows;
  for (std::size_t placement : placements) {
    const QModelIndex row = proxy_->mapFromSource(model_->index(static_cast<int>(placement), 0));
    if (row.isValid()) rows.select(row, row);
  }
  table_->selectionModel()->select(rows,
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (remember_layout_) {
    QSettings settings("Ridgeline", "ridgeline-gui");
    settings.setValue("geometry", saveGeometry());
    settings.setValue("splitter", splitter_->saveState());
    settings.setValue("sides", sides_->saveState());
  }
  event->accept();
}

}  // namespace ridgeline::gui
