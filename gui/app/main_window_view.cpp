// The View menu (colours, marker size, roofs, overlaid runs) and the facets above the table.
#include <QActionGroup>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <algorithm>

#include "main_window.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {

void MainWindow::fill_facets() {
  proxy_->clear_facets();
  for (const auto& [column, box] : facets_) {
    box->clear();
    box->addItem("any " + model_->headerData(column, Qt::Horizontal).toString());
    box->addItems(proxy_->facet_values(column));
  }
}

void MainWindow::build_view_menu() {
  QMenu* view = menuBar()->addMenu("&View");
  QMenu* colour = view->addMenu("&Colour points by");
  auto* group = new QActionGroup(this);
  for (const auto& [name, by] :
       {std::pair{"&backend", ColourBy::backend}, std::pair{"&op", ColourBy::op},
        std::pair{"b&ound", ColourBy::bound}, std::pair{"&dtype", ColourBy::dtype},
        std::pair{"&run", ColourBy::run}}) {
    QAction* a = colour->addAction(name, this, [this, by = by] {
      view_->set_colour_by(by);
      legend_->setText(view_->legend_html());
    });
    a->setCheckable(true);
    a->setChecked(by == ColourBy::backend);
    group->addAction(a);
  }
  QAction* size = view->addAction("&Size points by time", this, [this](bool on) {
    view_->set_size_by_time(on);
    legend_->setText(view_->legend_html());
  });
  size->setCheckable(true);
  roofs_ = view->addMenu("&Roofs");
  fill_roofs_menu();
  overlay_ = view->addMenu("&Overlay runs");
  fill_overlay_menu();
}

// One checkable action per open run but the one shown.
void MainWindow::fill_overlay_menu() {
  overlay_->clear();
  for (int i = 0; i < static_cast<int>(documents_.size()); ++i) {
    if (i == runs_->currentIndex()) continue;
    QAction* a = overlay_->addAction(runs_->itemText(i));
    a->setCheckable(true);
    a->setData(i);
    a->setChecked(std::find(overlaid_.begin(), overlaid_.end(), i) != overlaid_.end());
    connect(a, &QAction::toggled, this, [this] {
      std::vector<int> checked;
      for (QAction* run : overlay_->actions())
        if (run->isChecked()) checked.push_back(run->data().toInt());
      overlay(checked);
    });
  }
  overlay_->setEnabled(!overlay_->actions().isEmpty());
}

void MainWindow::overlay(const std::vector<int>& indices) {
  std::vector<std::shared_ptr<const RunDocument>> runs;
  std::vector<int> kept;
  for (int i : indices)
    if (i >= 0 && i < static_cast<int>(documents_.size()) && i != runs_->currentIndex()) {
      runs.push_back(documents_[static_cast<std::size_t>(i)]);
      kept.push_back(i);
    }
  // Nothing changes: the table, its filter and selection stay as they are.
  if (kept == overlaid_) return;
  overlaid_ = kept;
  if (!runs.empty() && compared_base_ >= 0) compare_with(-1);  // one or the other on the chart
  for (QAction* a : overlay_->actions()) {                     // the menu says what is drawn
    const QSignalBlocker quiet(a);
    a->setChecked(std::find(kept.begin(), kept.end(), a->data().toInt()) != kept.end());
  }
  if (!runs.empty()) {
    const QSignalBlocker quiet(compare_);
    compare_->setCurrentIndex(0);
  }
  // The chart first: the table's reset tells it which rows the filter passes.
  std::vector<std::shared_ptr<const RunDocument>> table = runs;
  view_->set_overlay(std::move(runs));
  if (runs_->currentIndex() >= 0) {
    table.push_back(documents_[static_cast<std::size_t>(runs_->currentIndex())]);
    std::vector<std::string> names;  // as the chart names them
    for (const auto& [first, name] : view_->runs()) names.push_back(name);
    if (names.size() == table.size())
      model_->set_documents(std::move(table), std::move(names));
    else
      model_->set_document(table.back());
  }
  fill_facets();
  fill_roofs_menu();
  legend_->setText(view_->legend_html());
}

// One checkable action per memory level, per dtype and per instruction set the models drawn
// have roofs for, checked where the chart shows them.
void MainWindow::fill_roofs_menu() {
  roofs_->clear();
  const HiddenRoofs& hidden = view_->hidden();
  const auto add = [&](const char* kind, const std::vector<std::string>& values,
                       const std::set<std::string>& off, const char* suffix) {
    if (!roofs_->actions().isEmpty()) roofs_->addSeparator();
    for (const auto& value : values) {
      QAction* a = roofs_->addAction(QString::fromStdString(value) + suffix);
      a->setCheckable(true);
      a->setChecked(!off.count(value));
      a->setData(QStringList{kind, QString::fromStdString(value)});
      connect(a, &QAction::toggled, this, &MainWindow::roofs_toggled);
    }
  };
  add("level", view_->roof_levels(), hidden.levels, " bandwidth");
  add("dtype", view_->roof_dtypes(), hidden.dtypes, " peaks");
  add("isa", view_->roof_isas(), hidden.isas, " peaks (the next best ISA where off)");
  roofs_->setEnabled(!roofs_->actions().isEmpty());
}

void MainWindow::roofs_toggled() {
  HiddenRoofs hidden;
  for (QAction* a : roofs_->actions()) {
    const QStringList what = a->data().toStringList();
    if (what.size() != 2 || a->isChecked()) continue;
    (what[0] == "level"   ? hidden.levels
     : what[0] == "dtype" ? hidden.dtypes
                          : hidden.isas)
        .insert(what[1].toStdString());
  }
  view_->set_hidden(std::move(hidden));
}

}  // namespace ridgeline::gui
