#pragma once
// The results table: one row per placement of a document (placeable or not), the columns of
// the HTML report's results table, the op, device and the repetition statistics. Display text is
// formatted as the HTML report formats it; SortRole holds the number behind a numeric cell.
#include <QAbstractTableModel>
#include <memory>

#include "ridgeline/gui/run_document.hpp"

namespace ridgeline::gui {

class ResultsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    kCase,
    kOp,
    kBackend,
    kDevice,
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
    kBound,
    kSources,
    kDisposition,
    kNotes,
    kColumns
  };
  static constexpr int kSortRole = Qt::UserRole;           // the number behind a numeric cell
  static constexpr int kPlacementRole = Qt::UserRole + 1;  // the row's placement index

  explicit ResultsModel(QObject* parent = nullptr);
  // Shows `document`'s placements (nullptr: none). The model keeps it alive.
  void set_document(std::shared_ptr<const RunDocument> document);
  const RunDocument* document() const { return document_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const RunDocument> document_;
};

}  // namespace ridgeline::gui
