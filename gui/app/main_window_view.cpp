// The View menu (colours, roofs) and the facets above the table.
#include <QActionGroup>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>

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
  roofs_ = view->addMenu("&Roofs");
  fill_roofs_menu();
}

// One checkable action per memory level and per dtype the document's model has roofs for.
void MainWindow::fill_roofs_menu() {
  roofs_->clear();
  for (const auto& level : view_->roof_levels()) {
    QAction* a = roofs_->addAction(QString::fromStdString(level) + " bandwidth");
    a->setCheckable(true);
    a->setChecked(true);
    a->setData(QStringList{"level", QString::fromStdString(level)});
    connect(a, &QAction::toggled, this, &MainWindow::roofs_toggled);
  }
  roofs_->addSeparator();
  for (const auto& dtype : view_->roof_dtypes()) {
    QAction* a = roofs_->addAction(QString::fromStdString(dtype) + " peaks");
    a->setCheckable(true);
    a->setChecked(true);
    a->setData(QStringList{"dtype", QString::fromStdString(dtype)});
    connect(a, &QAction::toggled, this, &MainWindow::roofs_toggled);
  }
  roofs_->setEnabled(!roofs_->actions().isEmpty());
}

void MainWindow::roofs_toggled() {
  std::set<std::string> levels, dtypes;
  for (QAction* a : roofs_->actions()) {
    const QStringList what = a->data().toStringList();
    if (what.size() != 2 || a->isChecked()) continue;
    (what[0] == "level" ? levels : dtypes).insert(what[1].toStdString());
  }
  view_->set_hidden(std::move(levels), std::move(dtypes));
}

}  // namespace ridgeline::gui
