// The window's files: the File menu (Open, its nodes, Use ceilings from…, the recent files), a
// dropped file, and their reading again when they change on disk.
#include <QAction>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <utility>

#include "main_window.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/gui/shown_text.hpp"

namespace ridgeline::gui {

// File: Open…, Use ceilings from…, Open its nodes apart, Open recent, the exports, Quit.
void MainWindow::build_file_menu() {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open…", this, [this] {
    open_or_warn(QFileDialog::getOpenFileNames(
        this, "Open runs", {}, "Runs and Google Benchmark JSON (*.json *.jsonl);;All files (*)"));
  });
  open->setShortcut(QKeySequence::Open);
  file->addAction("Use &ceilings from…", this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Machine model", {},
                                                      "Machine models (*.json);;All files (*)");
    if (path.isEmpty()) return;
    if (const QString error = use_ceilings_from(path); !error.isEmpty())
      QMessageBox::warning(this, "Ridgeline", error);
  });
  file->addAction("Open its &nodes apart", this, [this] {
    if (open_nodes() == 0)
      statusBar()->showMessage(
          "the run shown has results of one host (or names none): nothing to open apart");
  });
  recent_ = file->addMenu("Open &recent");
  fill_recent_menu();
  add_export_actions(file);
  QAction* quit = file->addAction("&Quit", this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
}

// A file shown is read again when it changes: a burst of writes once, when it settles.
void MainWindow::watch_files() {
  watcher_ = new QFileSystemWatcher(this);
  reload_timer_ = new QTimer(this);
  reload_timer_->setSingleShot(true);
  reload_timer_->setInterval(150);
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, [this](const QString& path) {
    if (!changed_.contains(path)) changed_ << path;
    reload_timer_->start();
  });
  connect(reload_timer_, &QTimer::timeout, this, [this] {
    const QStringList paths = std::exchange(changed_, {});
    for (const QString& path : paths) reload(path);
  });
}

QStringList MainWindow::open_files(const QStringList& paths) {
  QStringList errors;
  for (const QString& path : paths) {
    try {
      documents_.push_back(std::make_shared<const RunDocument>(
          open_run_document(path.toStdString(), ceilings_, ceilings_origin_)));
      runs_->addItem(shown(path), path);
      fill_compare_choices();
      watcher_->addPath(path);
      remember_recent(path);
    } catch (const std::exception& e) {  // InputError: one line naming the file
      errors << shown(std::string(e.what()));
    }
  }
  if (!documents_.empty()) runs_->setCurrentIndex(static_cast<int>(documents_.size()) - 1);
  if (!errors.isEmpty()) statusBar()->showMessage(errors.join("; "));
  return errors;
}

int MainWindow::open_nodes() {
  const int current = runs_->currentIndex();
  if (current < 0) return 0;
  std::vector<RunDocument> nodes =
      node_documents(*documents_[static_cast<std::size_t>(current)], ceilings_, ceilings_origin_);
  const int first = static_cast<int>(documents_.size());
  for (RunDocument& d : nodes) {
    const QString path = QString::fromStdString(d.path);
    documents_.push_back(std::make_shared<const RunDocument>(std::move(d)));
    runs_->addItem(shown(path), path);
  }
  if (nodes.empty()) return 0;
  fill_compare_choices();
  runs_->setCurrentIndex(static_cast<int>(documents_.size()) - 1);  // the last node shown
  std::vector<int> others;
  for (int i = first; i + 1 < static_cast<int>(documents_.size()); ++i) others.push_back(i);
  overlay(others);
  for (QAction* a : findChildren<QAction*>())  // View → Colour points by → run: by node
    if (a->text() == "&run" && a->isCheckable()) a->trigger();
  return static_cast<int>(nodes.size());
}

void MainWindow::show_run(int index) {
  runs_->setCurrentIndex(index);
}

void MainWindow::open_or_warn(const QStringList& paths) {
  if (const QStringList errors = open_files(paths); !errors.isEmpty())
    QMessageBox::warning(this, "Ridgeline", errors.join('\n'));
}

QString MainWindow::use_ceilings_from(const QString& machine_path) {
  try {
    ceilings_ = read_machine_file(machine_path.toStdString());
    ceilings_origin_ = "File → Use ceilings from " + machine_path.toStdString();
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  const int current = runs_->currentIndex();
  if (current >= 0) {
    const auto& doc = documents_[static_cast<std::size_t>(current)];
    documents_[static_cast<std::size_t>(current)] = std::make_shared<const RunDocument>(
        open_run_document(doc->path, ceilings_, ceilings_origin_));
    show_document(current);
  }
  return {};
}

void MainWindow::reload(const QString& path) {
  // A file replaced by a rename is no longer watched: watch the new one.
  if (!watcher_->files().contains(path)) watcher_->addPath(path);
  for (std::size_t i = 0; i < documents_.size(); ++i) {
    if (QString::fromStdString(documents_[i]->path) != path) continue;
    try {
      documents_[i] = std::make_shared<const RunDocument>(
          open_run_document(path.toStdString(), ceilings_, ceilings_origin_));
    } catch (const std::exception& e) {
      statusBar()->showMessage(
          QString("%1 changed and cannot be read now (%2): showing it as it was")
              .arg(path, QString::fromStdString(e.what())));
      continue;
    }
    // What the chart showed it with stays: the overlay, the comparison.
    const int at = static_cast<int>(i), compared = compared_base_;
    const std::vector<int> overlaid = overlaid_runs();
    const bool shown = at == runs_->currentIndex();
    if (shown) show_document(at);
    if (!overlaid.empty() && (shown || std::count(overlaid.begin(), overlaid.end(), at))) {
      if (!shown) overlay({});  // the overlaid run's new document in place of the old
      overlay(overlaid);
    }
    if (compared >= 0 && (shown || compared == at)) compare_with(compared);
  }
}

void MainWindow::remember_recent(const QString& path) {
  if (!remember_layout_) return;  // --screenshot leaves the user's settings alone
  QSettings settings("Ridgeline", "ridgeline-gui");
  QStringList recent = settings.value("recent").toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > 10) recent.removeLast();
  settings.setValue("recent", recent);
  fill_recent_menu();
}

void MainWindow::fill_recent_menu() {
  recent_->clear();
  const QStringList recent =
      remember_layout_ ? QSettings("Ridgeline", "ridgeline-gui").value("recent").toStringList()
                       : QStringList{};
  for (const QString& path : recent)
    recent_->addAction(path, this, [this, path] { open_or_warn({path}); });
  recent_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  open_or_warn(paths);
  event->acceptProposedAction();
}

}  // namespace ridgeline::gui
