#pragma once
// The verdict table of a comparison of two open runs (compare_runs: the same statistics and
// verdicts as `ridgeline compare` with the options chosen in the window): one row per
// compared case, largest effect first, the verdict in its colour.
#include <QAbstractTableModel>
#include <memory>

#include "ridgeline/analysis/run_comparison.hpp"

namespace ridgeline::gui {

class ComparisonModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { kCase, kVerdict, kRatio, kInterval, kP, kRepetitions, kWhy, kColumns };
  static constexpr int kSortRole = Qt::UserRole;

  explicit ComparisonModel(QObject* parent = nullptr);
  void set_comparison(std::shared_ptr<const RunComparison> comparison);  // nullptr: none

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const RunComparison> comparison_;
  std::vector<std::size_t> order_;  // rows: indices into the cases, largest effect first
};

}  // namespace ridgeline::gui
