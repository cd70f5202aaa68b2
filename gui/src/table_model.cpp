#include "ridgeline/gui/table_model.hpp"

#include <fmt/format.h>

#include <QColor>
#include <cmath>

#include "ridgeline/gui/shown_text.hpp"

namespace ridgeline::gui {

TableModel::TableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableModel::set_table(Table table) {
  beginResetModel();
  table_ = std::move(table);
  endResetModel();
}

int TableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int TableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.headers.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto& row = table_.rows[static_cast<std::size_t>(index.row())];
  if (static_cast<std::size_t>(index.column()) >= row.size()) return {};
  const TableCell& c = row[static_cast<std::size_t>(index.column())];
  switch (role) {
    case Qt::DisplayRole:
      return shown(c.text);
    case kSortRole:
      return std::isnan(c.value) ? QVariant(QString::fromStdString(c.text)) : QVariant(c.value);
    case Qt::TextAlignmentRole:
      return std::isnan(c.value) ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      return c.colour.empty() ? QVariant() : QVariant(QColor(QString::fromStdString(c.colour)));
    case Qt::ToolTipRole:  // a cell of several lines, one per line
      return c.lines.empty() ? QVariant()
                             : QVariant(shown(fmt::format("{}", fmt::join(c.lines, "\n"))));
    default:
      return {};
  }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
      section >= columnCount())
    return {};
  return QString::fromStdString(table_.headers[static_cast<std::size_t>(section)]);
}

}  // namespace ridgeline::gui
