#include "ridgeline/gui/results_model.hpp"

#include <QColor>
#include <QStringList>
#include <cmath>
#include <optional>

#include "ridgeline/gui/shown_text.hpp"
#include "ridgeline/reports/results_table.hpp"

namespace ridgeline::gui {

namespace {

// The model's columns are the report's results columns (results_table.hpp) with the run a
// row comes from after the case.
constexpr bool same(ResultsModel::Column model, ResultColumn report) {
  return model == 1 + static_cast<int>(report);
}
static_assert(ResultsModel::kColumns == kResultColumns + 1 && ResultsModel::kCase == 0 &&
              ResultsModel::kRun == 1);
static_assert(same(ResultsModel::kOp, ResultColumn::op) &&
              same(ResultsModel::kBackend, ResultColumn::backend) &&
              same(ResultsModel::kDevice, ResultColumn::device) &&
              same(ResultsModel::kUnit, ResultColumn::unit) &&
              same(ResultsModel::kDtype, ResultColumn::dtype) &&
              same(ResultsModel::kThreads, ResultColumn::threads) &&
              same(ResultsModel::kGflops, ResultColumn::gflops) &&
              same(ResultsModel::kTime, ResultColumn::time) &&
              same(ResultsModel::kMin, ResultColumn::min) &&
              same(ResultsModel::kMax, ResultColumn::max) &&
              same(ResultsModel::kCv, ResultColumn::cv) &&
              same(ResultsModel::kRepetitions, ResultColumn::repetitions) &&
              same(ResultsModel::kIntensity, ResultColumn::intensity) &&
              same(ResultsModel::kLevel, ResultColumn::level) &&
              same(ResultsModel::kAttainable, ResultColumn::attainable) &&
              same(ResultsModel::kEfficiency, ResultColumn::efficiency) &&
              same(ResultsModel::kFasterUnit, ResultColumn::faster_unit) &&
              same(ResultsModel::kEnergy, ResultColumn::energy) &&
              same(ResultsModel::kBound, ResultColumn::bound) &&
              same(ResultsModel::kSources, ResultColumn::sources) &&
              same(ResultsModel::kDisposition, ResultColumn::validation) &&
              same(ResultsModel::kNotes, ResultColumn::notes) &&
              same(ResultsModel::kGuidance, ResultColumn::guidance));

std::optional<ResultColumn> result_column_at(int column) {
  if (column == ResultsModel::kRun) return std::nullopt;
  return static_cast<ResultColumn>(column == ResultsModel::kCase ? 0 : column - 1);
}

// The cell's text as the window shows it: each line escaped, one per line.
QString shown_cell(const TableCell& c) {
  if (c.lines.empty()) return shown(c.text);
  QStringList lines;
  for (const auto& line : c.lines) lines << shown(line);
  return lines.join('\n');
}

}  // namespace

ResultsModel::ResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultsModel::set_document(std::shared_ptr<const RunDocument> document) {
  if (!document) return set_documents({}, {});
  std::vector<std::string> names = run_labels({document.get()});
  set_documents({std::move(document)}, std::move(names));
}

void ResultsModel::set_documents(std::vector<std::shared_ptr<const RunDocument>> runs,
                                 std::vector<std::string> names) {
  beginResetModel();
  runs_ = std::move(runs);
  names_ = std::move(names);
  names_.resize(runs_.size());
  first_.clear();
  rows_ = 0;
  for (const auto& run : runs_) {
    first_.push_back(rows_);
    rows_ += run->input.placements.size();
  }
  endResetModel();
}

std::size_t ResultsModel::run_of(std::size_t row) const {
  std::size_t k = runs_.size() - 1;
  while (first_[k] > row) --k;
  return k;
}

std::pair<const RunDocument*, std::size_t> ResultsModel::locate(std::size_t placement) const {
  if (placement >= rows_) return {nullptr, 0};
  const std::size_t k = run_of(placement);
  return {runs_[k].get(), placement - first_[k]};
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return static_cast<int>(rows_);
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumns;
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  if (role == kPlacementRole) return index.row();
  const auto row = static_cast<std::size_t>(index.row());
  const std::size_t k = run_of(row);
  const RooflinePlacement& p = runs_[k]->input.placements[row - first_[k]];
  const std::optional<ResultColumn> column = result_column_at(index.column());
  const TableCell c =
      column ? result_cell(p, *column) : TableCell{names_[k], NAN, false, {}, {}, {}};
  switch (role) {
    case Qt::DisplayRole:
      return shown_cell(c);
    case kSortRole:
      return std::isnan(c.value) ? QVariant(shown_cell(c)) : QVariant(c.value);
    case Qt::ToolTipRole:
      return index.column() == kNotes || index.column() == kCase ? shown_cell(c) : QVariant();
    case Qt::TextAlignmentRole:
      return std::isnan(c.value) ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      return c.alarm ? QVariant(QColor("#e03131")) : QVariant();
    default:
      return {};
  }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
      section >= kColumns)
    return {};
  const std::optional<ResultColumn> column = result_column_at(section);
  const std::string_view header = column ? result_column(*column).header : "run";
  return QString::fromUtf8(header.data(), static_cast<int>(header.size()));
}

}  // namespace ridgeline::gui
