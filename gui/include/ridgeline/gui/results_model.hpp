#pragma once
// The results table: one row per placement of a document (placeable or not), the report's
// results columns (reports/results_table.hpp, cells formatted by it) with the run a row
// comes from after the case. SortRole holds the number behind a numeric cell.
#include <QAbstractTableModel>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ridgeline/gui/run_document.hpp"

namespace ridgeline::gui {

class ResultsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    kCase,
    kRun,
    kOp,
    kBackend,
    kDevice,
    kUnit,
    kDtype,
    kThreads,
    kGflops,
    kTime,
    kMin,
    kMax,
    kCv,
    kRepetitions,
    kIntensity,
    kLevel,
    kAttainable,
    kEfficiency,
    kFasterUnit,
    kEnergy,
    kBound,
    kSources,
    kDisposition,
    kNotes,
    kGuidance,
    kColumns
  };
  static constexpr int kSortRole = Qt::UserRole;  // the number behind a numeric cell
  // The row's index among the placements drawn (the runs' one after another).
  static constexpr int kPlacementRole = Qt::UserRole + 1;

  explicit ResultsModel(QObject* parent = nullptr);
  // Shows `document`'s placements (nullptr: none). The model keeps it alive.
  void set_document(std::shared_ptr<const RunDocument> document);
  // Shows several runs' placements one after another, the run shown last (an overlay:
  // the order the chart draws them in), each row's run named by `names` (one per run).
  void set_documents(std::vector<std::shared_ptr<const RunDocument>> runs,
                     std::vector<std::string> names);
  // The run shown (the last), or nullptr.
  const RunDocument* document() const { return runs_.empty() ? nullptr : runs_.back().get(); }
  // The run row `placement` (kPlacementRole) comes from and its index among that run's
  // placements; {nullptr, 0} out of range.
  std::pair<const RunDocument*, std::size_t> locate(std::size_t placement) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::size_t run_of(std::size_t row) const;  // the index of the run row `row` is in
  std::vector<std::shared_ptr<const RunDocument>> runs_;
  std::vector<std::string> names_;
  std::vector<std::size_t> first_;  // each run's first row
  std::size_t rows_ = 0;
};

}  // namespace ridgeline::gui
