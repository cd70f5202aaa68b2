#include "ridgeline/gui/results_filter.hpp"

#include <set>

namespace ridgeline::gui {

ResultsFilter::ResultsFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  setFilterKeyColumn(-1);
  setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void ResultsFilter::set_facet(int column, const QStringList& allowed) {
  if (allowed.isEmpty())
    facets_.erase(column);
  else
    facets_[column] = allowed;
  invalidateFilter();
}

void ResultsFilter::clear_facets() {
  facets_.clear();
  invalidateFilter();
}

QStringList ResultsFilter::facet_values(int column) const {
  std::set<QString> values;
  const QAbstractItemModel* source = sourceModel();
  if (!source) return {};
  for (int r = 0; r < source->rowCount(); ++r)
    values.insert(source->index(r, column).data().toString());
  return QStringList(values.begin(), values.end());
}

bool ResultsFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
  for (const auto& [column, allowed] : facets_)
    if (!allowed.contains(sourceModel()->index(row, column, parent).data().toString()))
      return false;
  return QSortFilterProxyModel::filterAcceptsRow(row, parent);
}

}  // namespace ridgeline::gui
