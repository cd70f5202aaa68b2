#include "ridgeline/gui/results_model.hpp"

#include <fmt/format.h>

#include <QColor>
#include <cmath>

#include "ridgeline/gui/shown_text.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline::gui {

namespace {

using namespace reports;

QString q(const std::string& s) {
  return shown(s);  // names and notes come from the run
}

const char* header(int column) {
  static const char* names[] = {"case",
                                "run",
                                "op",
                                "backend",
                                "device",
                                "dtype",
                                "threads",
                                "GFLOP/s",
                                "time per call",
                                "min",
                                "max",
                                "cv",
                                "repetitions",
                                "intensity (FLOP/B)",
                                "level",
                                "attainable GFLOP/s",
                                "efficiency",
                                "bound",
                                "sources (FLOPs, bytes)",
                                "validation",
                                "notes"};
  static_assert(sizeof names / sizeof names[0] == ResultsModel::kColumns);
  return names[column];
}

std::string notes_text(const RooflinePlacement& p) {
  std::string s;
  for (const auto& n : p.notes) {
    if (!s.empty()) s += '\n';
    s += fmt::format("{}: {}", to_string(n.kind), n.text);
  }
  return s;
}

// The cell's text and, for a numeric column, its value (NaN where there is none).
std::pair<std::string, double> cell(const RooflinePlacement& p, const std::string& run,
                                    int column) {
  const RepetitionSamples& r = p.repetitions;
  const bool placed = p.placeable;
  const bool roof = placed && p.attainable > 0;
  switch (column) {
    case ResultsModel::kCase:
      return {p.name, NAN};
    case ResultsModel::kRun:
      return {run, NAN};
    case ResultsModel::kOp:
      return {p.op, NAN};
    case ResultsModel::kBackend:
      return {p.backend, NAN};
    case ResultsModel::kDevice:
      return {std::string(to_string(p.device)), NAN};
    case ResultsModel::kDtype:
      return {p.dtype, NAN};
    case ResultsModel::kThreads:
      return {
          p.device == Device::gpu ? std::string(display_name(p.device)) : std::to_string(p.threads),
          p.threads};
    case ResultsModel::kGflops:
      return placed ? std::pair{gflops(p.achieved), p.achieved} : std::pair{"", NAN};
    case ResultsModel::kTime:
      return p.seconds > 0 ? std::pair{duration(p.seconds), p.seconds} : std::pair{"", NAN};
    case ResultsModel::kMin:
      return r.seconds.empty() ? std::pair{"", NAN} : std::pair{duration(r.min), r.min};
    case ResultsModel::kMax:
      return r.seconds.empty() ? std::pair{"", NAN} : std::pair{duration(r.max), r.max};
    case ResultsModel::kCv:
      return r.seconds.size() < 2
                 ? std::pair{"", NAN}
                 : std::pair{fmt::format("{:.1f}%{}", 100 * r.cv, p.noisy ? ", noisy" : ""), r.cv};
    case ResultsModel::kRepetitions:
      return {std::to_string(r.seconds.size()), static_cast<double>(r.seconds.size())};
    case ResultsModel::kIntensity:
      return placed ? std::pair{intensity(p.level_intensity), p.level_intensity}
                    : std::pair{"", NAN};
    case ResultsModel::kLevel:
      return {placed ? p.level : "", NAN};
    case ResultsModel::kAttainable:
      return roof ? std::pair{gflops(p.attainable), p.attainable} : std::pair{"", NAN};
    case ResultsModel::kEfficiency:
      return roof ? std::pair{percent(p.efficiency) + (p.above_roof ? " above roof" : ""),
                              p.efficiency}
                  : std::pair{"", NAN};
    case ResultsModel::kBound:
      return {placed ? p.bound : "", NAN};
    case ResultsModel::kSources:
      return {fmt::format("{}, {}", to_string(p.flops_source), to_string(p.bytes_source)), NAN};
    case ResultsModel::kDisposition:
      return {placed ? std::string(to_string(p.disposition))
                     : fmt::format("{}: {}", to_string(p.disposition), p.reason),
              NAN};
    case ResultsModel::kNotes:
      return {notes_text(p), NAN};
  }
  return {"", NAN};
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
  const auto [text, value] = cell(p, names_[k], index.column());
  switch (role) {
    case Qt::DisplayRole:
      return q(text);
    case kSortRole:
      return std::isnan(value) ? QVariant(q(text)) : QVariant(value);
    case Qt::ToolTipRole:
      return index.column() == kNotes || index.column() == kCase ? q(text) : QVariant();
    case Qt::TextAlignmentRole:
      return std::isnan(value) ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (p.above_roof && index.column() == kEfficiency) return QColor("#e03131");
      return {};
    default:
      return {};
  }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
      section >= kColumns)
    return {};
  return QString::fromUtf8(header(section));
}

}  // namespace ridgeline::gui
