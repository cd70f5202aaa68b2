#pragma once
// One of the report's tables (reports/tables.hpp: ceilings, measured levels, ladder, input
// patterns, a comparison's verdicts) as an item model: the same columns and text as the HTML
// report; SortRole holds a numeric cell's value, a cell's colour is its foreground, a cell of
// several lines shows them all in its tooltip.
#include <QAbstractTableModel>

#include "ridgeline/reports/tables.hpp"

namespace ridgeline::gui {

class TableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  static constexpr int kSortRole = Qt::UserRole;
  explicit TableModel(QObject* parent = nullptr);
  void set_table(Table table);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  Table table_;
};

}  // namespace ridgeline::gui
