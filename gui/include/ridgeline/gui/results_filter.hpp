#pragma once
// The table's filter: a row passes the text or regular expression (any column) and every
// facet (a column whose display text must be one of the values chosen: backend, op, dtype,
// threads, validation, bound, device). The chart shows the rows that pass.
#include <QSortFilterProxyModel>
#include <QStringList>
#include <map>

namespace ridgeline::gui {

class ResultsFilter : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit ResultsFilter(QObject* parent = nullptr);
  // Only rows whose `column` reads one of `allowed`; an empty list lifts the facet.
  void set_facet(int column, const QStringList& allowed);
  void clear_facets();
  // The distinct values of `column` in the source model, sorted: the facet's choices.
  QStringList facet_values(int column) const;

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  std::map<int, QStringList> facets_;
};

}  // namespace ridgeline::gui
