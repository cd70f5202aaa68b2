#pragma once
// The table's filter: a row passes the text or regular expression (any column) and every
// facet (a column whose display text must be one of the values chosen: backend, op, dtype,
// threads, validation, bound, device). The chart shows the rows that pass. The text box's
// pattern is matched by RE2 (core/user_pattern.hpp: linear time, whatever is typed).
#include <QSortFilterProxyModel>
#include <QStringList>
#include <map>
#include <optional>

#include "ridgeline/core/user_pattern.hpp"

namespace ridgeline::gui {

class ResultsFilter : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit ResultsFilter(QObject* parent = nullptr);
  // Only rows whose `column` reads one of `allowed`; an empty list lifts the facet.
  void set_facet(int column, const QStringList& allowed);
  void clear_facets();
  // The text box: a valid regular expression (case-insensitive) filters as one, anything
  // else as plain text; "" lifts it.
  void set_text(const QString& text);
  // The distinct values of `column` in the source model, sorted: the facet's choices.
  QStringList facet_values(int column) const;

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  std::map<int, QStringList> facets_;
  std::optional<UserPattern> pattern_;
};

}  // namespace ridgeline::gui
