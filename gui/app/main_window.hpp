#pragma once
// The dashboard's window: the open runs (a chooser), the roofline chart above the results
// table, a filter over the table (text or regular expression), selection linked both ways
// between chart and table, File → Open and Use ceilings from…; a bad file is a message in
// the window, never a crash.
#include <QMainWindow>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "ridgeline/core/thresholds.hpp"
#include "ridgeline/gui/comparison_model.hpp"
#include "ridgeline/gui/results_filter.hpp"
#include "ridgeline/gui/results_model.hpp"
#include "ridgeline/gui/run_document.hpp"
#include "ridgeline/gui/table_model.hpp"

class QComboBox;
class QDoubleSpinBox;
class QFileSystemWatcher;
class QMenu;
class QTimer;
class QLineEdit;
class QSplitter;
class QTableView;
class QHBoxLayout;
class QLabel;
class QTabWidget;
class QTextBrowser;

namespace ridgeline::gui {

class RooflineView;

// A table view of `model`, sortable by `sort_role` (main_window_tables.cpp).
QTableView* sortable_view(QAbstractItemModel* model, int sort_role, QWidget* parent);
class SweepView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // `remember_layout`: restore and save the window's geometry and splitter (QSettings); off
  // for --screenshot, whose picture must not depend on the last session.
  explicit MainWindow(bool remember_layout = true, QWidget* parent = nullptr);
  // Opens each file and shows the last opened; returns one line per file that could not be
  // opened (also shown in the status bar).
  QStringList open_files(const QStringList& paths);
  // File → Open its nodes apart: the run shown, a merged Run of several hosts, as one run per
  // host, shown overlaid and coloured by run (node); the number of runs opened (0: one host).
  int open_nodes();
  // Ceilings for the documents opened from now on and the current one re-placed; "" or the
  // reason it could not be read.
  QString use_ceilings_from(const QString& machine_path);
  // Reads the document's file again (a journal still being written, a run rewritten): the
  // watcher calls it when the file changes. Keeps the old document where the file cannot
  // be read now, and says so in the status bar.
  void reload(const QString& path);

  // Shows open run `index` (as the "run:" list does).
  void show_run(int index);
  RooflineView* roofline() const { return view_; }
  QTableView* table() const { return table_; }
  ResultsFilter* filter() const { return proxy_; }
  const ResultsModel* results() const { return model_; }
  QTextBrowser* details() const { return details_; }
  // Compares the current run with open run `base_index` (-1: stop comparing): both on the
  // chart, the verdicts in their tab (main_window_compare.cpp).
  void compare_with(int base_index);
  const ComparisonModel* verdicts() const { return verdicts_model_; }
  // The comparison's options as the Verdicts tab sets them (compare's --threshold, --alpha).
  ComparisonSettings comparison_settings() const;
  // A thresholds file from `compare --calibrate` for the comparison ("": back to the one
  // threshold); "" or why it could not be read.
  QString use_thresholds_file(const QString& path);
  QDoubleSpinBox* threshold_box() const { return threshold_; }
  QDoubleSpinBox* alpha_box() const { return alpha_; }
  QComboBox* gate_box() const { return gate_; }
  // Draws the open runs `indices` with the one shown (View → Overlay runs); stops a
  // comparison. Empty: the run shown alone.
  void overlay(const std::vector<int>& indices);
  const std::vector<int>& overlaid_runs() const { return overlaid_; }  // the open runs overlaid now
  QTabWidget* tabs() const { return tabs_; }

  // The exports of File → Export (main_window_export.cpp): each file written whole or not at
  // all; "" or why it could not be written.
  QString export_png(const QString& path);
  QString export_svg(const QString& path);
  QString export_csv(const QString& path);
  QString export_selection_html(const QString& path);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void show_document(int index);
  void table_selection_changed();
  void select_placement(std::size_t placement);
  void select_placements(const std::set<std::size_t>& placements);
  void remember_recent(const QString& path);
  void open_or_warn(const QStringList& paths);  // open_files, the errors in a message box
  void build_file_menu();                       // main_window_files.cpp
  void watch_files();
  void build_view_menu();
  void fill_roofs_menu();
  void fill_overlay_menu();
  void roofs_toggled();
  void add_export_actions(QMenu* file);
  std::set<std::size_t> selected_placements() const;
  void fill_recent_menu();
  void fill_facets();
  void build_compare(QHBoxLayout* bar, QTabWidget* tabs);
  void fill_compare_choices();
  void build_table_tabs(QTabWidget* tabs);
  void fill_table_tabs(const RunDocument& document);
  void build_einsum_tab(QTabWidget* tabs);  // main_window_einsum.cpp
  void fill_einsum_tab(const ReportInput& input);
  void show_einsum(int index);
  void einsum_lowering_selected();
  const EinsumComparison* shown_contraction() const;  // the list's choice, unless a network

  bool remember_layout_;
  std::vector<std::shared_ptr<const RunDocument>> documents_;
  std::optional<MachineModel> ceilings_;
  std::string ceilings_origin_;
  QComboBox* runs_ = nullptr;
  QLineEdit* filter_text_ = nullptr;
  RooflineView* view_ = nullptr;
  QTableView* table_ = nullptr;
  ResultsModel* model_ = nullptr;
  ResultsFilter* proxy_ = nullptr;
  std::vector<std::pair<int, QComboBox*>> facets_;  // column, its choice
  QSplitter* splitter_ = nullptr;                   // chart over table
  QSplitter* sides_ = nullptr;                      // those, and the details pane on the right
  QTextBrowser* details_ = nullptr;
  QFileSystemWatcher* watcher_ = nullptr;
  QTimer* reload_timer_ = nullptr;  // a burst of writes is read once, when it settles
  QStringList changed_;             // files changed since the timer started
  QMenu* recent_ = nullptr;
  QMenu* roofs_ = nullptr;
  QLabel* legend_ = nullptr;
  QComboBox* compare_ = nullptr;         // "compare with": another open run as the base
  int compared_base_ = -1;               // its index, -1: none
  QDoubleSpinBox* threshold_ = nullptr;  // percent
  QDoubleSpinBox* alpha_ = nullptr;
  QComboBox* gate_ = nullptr;  // --fail-on
  QLabel* thresholds_file_ = nullptr;
  std::optional<Thresholds> thresholds_;
  QMenu* overlay_ = nullptr;   // View → Overlay runs: a checkable action per other open run
  std::vector<int> overlaid_;  // the open runs overlaid now, by index
  ComparisonModel* verdicts_model_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  TableModel* machine_tables_[3] = {};  // compute and memory ceilings, measured levels
  TableModel* ladder_table_ = nullptr;
  TableModel* pattern_table_ = nullptr;
  TableModel* power_cap_table_ = nullptr;
  int verdicts_tab_ = -1, machine_tab_ = -1, ladder_tab_ = -1, pattern_tab_ = -1, einsum_tab_ = -1;
  QTextBrowser* overview_ = nullptr;  // the first screen (reports/overview.hpp), the opening tab
  std::vector<EinsumComparison> einsum_;                  // the shown run's contractions
  std::vector<EinsumNetworkComparison> einsum_networks_;  // and networks, first in the list
  QComboBox* einsum_choice_ = nullptr;                    // which network or contraction
  TableModel* einsum_table_ = nullptr;                    // its lowerings
  QTableView* einsum_view_ = nullptr;
  QLabel* einsum_lines_ = nullptr;      // the best one's lead, what the notation hides
  TableModel* einsum_steps_ = nullptr;  // the picked lowering's steps
  SweepView* einsum_sweep_ = nullptr;   // the contraction's permutes beside the sweeps
  SweepView* sweep_ = nullptr;
};

}  // namespace ridgeline::gui
