#include "ridgeline/gui/results_filter.hpp"

#include <set>

#include "ridgeline/core/error.hpp"

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

void ResultsFilter::set_text(const QString& text) {
  pattern_.reset();
  if (!text.isEmpty()) {
    try {
      pattern_.emplace(text.toStdString(), "filter", true);
    } catch (const InputError&) {  // not a pattern RE2 takes: the text as it is
    }
  }
  setFilterFixedString(pattern_ ? QString() : text);
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
  if (!pattern_) return QSortFilterProxyModel::filterAcceptsRow(row, parent);
  for (int c = 0; c < sourceModel()->columnCount(parent); ++c)
    if (pattern_->search(sourceModel()->index(row, c, parent).data().toString().toStdString()))
      return true;
  return false;
}

}  // namespace ridgeline::gui
