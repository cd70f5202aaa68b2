// File → Export: the chart as PNG and SVG, the visible rows as CSV, the selection as an
// HTML report. Each file is written whole or not at all.
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

#include "main_window.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/gui/exports.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {

namespace {

QString write_text(const QString& path, const std::string& text) {
  try {
    write_file_atomically(path.toStdString(), text);
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

QString MainWindow::export_png(const QString& path) {
  const QImage image = roofline_image(view_->scene(), view_->paint());
  QSaveFile out(path);
  if (!out.open(QIODevice::WriteOnly) || !image.save(&out, "PNG") || !out.commit())
    return QString("cannot write %1: %2").arg(path, out.errorString());
  return {};
}

QString MainWindow::export_svg(const QString& path) {
  const RunDocument* doc = model_->document();
  if (!doc) return "no run is open";
  return write_text(path,
                    chart_svg(view_->scene(), *doc, view_->paint(), view_->comparison()) + "\n");
}

QString MainWindow::export_csv(const QString& path) {
  return write_text(path, rows_csv(*proxy_));
}

QString MainWindow::export_selection_html(const QString& path) {
  if (!model_->document()) return "no run is open";
  if (selected_placements().empty())
    return "select the cases to export in the table or on the chart";
  // The rows may come from several overlaid runs: one report is one run's.
  const RunDocument* run = nullptr;
  std::set<std::size_t> selected;
  for (std::size_t row : selected_placements()) {
    const auto [from, placement] = model_->locate(row);
    if (run && from != run)
      return "the selection holds cases of several runs: select the cases of one run";
    run = from;
    selected.insert(placement);
  }
  return write_text(path, selection_report_html(*run, selected));
}

void MainWindow::add_export_actions(QMenu* file) {
  QMenu* menu = file->addMenu("&Export");
  const auto add = [&](const char* name, const char* filter,
                       QString (MainWindow::*write)(const QString&)) {
    menu->addAction(name, this, [this, filter, write] {
      const QString path = QFileDialog::getSaveFileName(this, "Export", {}, filter);
      if (path.isEmpty()) return;
      if (const QString error = (this->*write)(path); !error.isEmpty())
        QMessageBox::warning(this, "Ridgeline", error);
    });
  };
  add("Chart as &PNG…", "PNG images (*.png)", &MainWindow::export_png);
  add("Chart as &SVG…", "SVG (*.svg)", &MainWindow::export_svg);
  add("Visible rows as &CSV…", "CSV (*.csv)", &MainWindow::export_csv);
  add("Selection as &HTML report…", "HTML (*.html)", &MainWindow::export_selection_html);
}

}  // namespace ridgeline::gui
