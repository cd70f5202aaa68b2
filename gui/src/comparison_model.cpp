#include "ridgeline/gui/comparison_model.hpp"

#include <QColor>

#include "ridgeline/gui/shown_text.hpp"
#include "ridgeline/reports/comparison_rows.hpp"
#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::gui {

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::set_comparison(std::shared_ptr<const RunComparison> comparison) {
  beginResetModel();
  comparison_ = std::move(comparison);
  order_.clear();
  // As `compare` prints them: untested (broken) first, then the largest effect.
  if (comparison_)
    for (const CaseComparison* c : comparison_rows::by_effect(*comparison_))
      order_.push_back(static_cast<std::size_t>(c - comparison_->cases.data()));
  endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(order_.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumns;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const CaseComparison& c = comparison_->cases[order_[static_cast<std::size_t>(index.row())]];
  const auto text = [&]() -> std::string {
    switch (index.column()) {
      case kCase:
        return c.name;
      case kVerdict:
        return std::string(to_string(c.verdict));
      case kRatio:
        return c.tested ? fmt::format("{:.3f}", c.ratio) : "-";
      case kInterval:
        return c.tested ? fmt::format("{:.3f}-{:.3f}", c.low, c.high) : "-";
      case kP:
        return c.tested ? fmt::format("{:.2g}", c.p_holm) : "-";
      case kRepetitions:
        return fmt::format("{}/{}", c.base.size(), c.head.size());
      case kWhy:
        return c.reason;
    }
    return "";
  };
  switch (role) {
    case Qt::DisplayRole:
      return shown(text());
    case kSortRole:
      if (index.column() == kRatio && c.tested) return c.ratio;
      if (index.column() == kP && c.tested) return c.p_holm;
      return QString::fromStdString(text());
    case Qt::ForegroundRole:
      return index.column() == kVerdict ? QVariant(QColor(verdict_colour(c.verdict))) : QVariant();
    case Qt::ToolTipRole:
      return index.column() == kWhy ? shown(c.reason) : QVariant();
    default:
      return {};
  }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  static const char* names[] = {"case",     "verdict",     "new ÷ base", "interval",
                                "p (Holm)", "repetitions", "why"};
  static_assert(sizeof names / sizeof names[0] == kColumns);
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
      section >= kColumns)
    return {};
  return QString::fromUtf8(names[section]);
}

}  // namespace ridgeline::gui
