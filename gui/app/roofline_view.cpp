// The chart's content: what is drawn (the document, a comparison's base or an overlay's runs,
// the filter), its roofs and colours, and the scene made from them (navigation:
// roofline_view_navigation.cpp).
#include "roofline_view.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ridgeline/gui/roofline_painter.hpp"

namespace ridgeline::gui {

namespace {
const std::vector<RooflinePlacement> kNone;
const std::vector<FusionPair> kNoPairs;
const std::vector<PowerCapRoof> kNoCaps;
}  // namespace

RooflineView::RooflineView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(480, 320);
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  refresh_drawn();
}

void RooflineView::set_document(std::shared_ptr<const RunDocument> document) {
  // Another run: its own data window; the same run read again (a journal grew): keep the view.
  if (!document || !document_ || document->path != document_->path) {
    window_.reset();
    undo_.clear();
  }
  visible_.reset();
  document_ = std::move(document);
  selected_.clear();
  refresh_drawn();
}

void RooflineView::set_selected(std::set<std::size_t> placements) {
  selected_ = std::move(placements);
  update();
}

void RooflineView::set_colour_by(ColourBy by) {
  by_ = by;  // the scene stays: only the markers' colours change
  recolour();
  update();
}

void RooflineView::set_visible(std::optional<std::set<std::size_t>> placements) {
  visible_ = std::move(placements);
  refresh_drawn();
}

void RooflineView::set_hidden(HiddenRoofs hidden) {
  hidden_ = std::move(hidden);
  refresh_roofs();
  rebuild();
}

namespace {
// The distinct values of `field` over `ceilings`, in order of first appearance.
template <typename Ceiling>
std::vector<std::string> distinct(const std::vector<Ceiling>& ceilings,
                                  std::string Ceiling::*field) {
  std::vector<std::string> out;
  for (const auto& c : ceilings)
    if (std::find(out.begin(), out.end(), c.*field) == out.end()) out.push_back(c.*field);
  return out;
}
}  // namespace

// The distinct values of `field` over the ceilings `list` picks from every model drawn.
template <typename Ceiling, typename List>
std::vector<std::string> RooflineView::over_models(List list, std::string Ceiling::*field) const {
  std::vector<std::string> out;
  for (const RunDocument* run : drawn_runs())
    if (run->input.machine)
      for (const auto& value : distinct(list(*run->input.machine), field))
        if (std::find(out.begin(), out.end(), value) == out.end()) out.push_back(value);
  return out;
}

std::vector<std::string> RooflineView::roof_levels() const {
  return over_models(
      [](const MachineModel& m) -> const auto& { return m.memory; }, &MemoryCeiling::level);
}

std::vector<std::string> RooflineView::roof_dtypes() const {
  return over_models(
      [](const MachineModel& m) -> const auto& { return m.compute; }, &ComputeCeiling::dtype);
}

std::vector<std::string> RooflineView::roof_isas() const {
  return over_models(
      [](const MachineModel& m) -> const auto& { return m.compute; }, &ComputeCeiling::isa);
}

QString RooflineView::legend_html() const {
  QString s;
  for (const auto& [key, colour] : colours_)
    s += QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2&nbsp;&nbsp; ")
             .arg(QString::fromStdString(colour), QString::fromStdString(key).toHtmlEscaped());
  bool throttled = false;
  for (const auto& p : *drawn_) throttled |= p.placeable && p.throttled;
  s += "&nbsp; &#9679; f32 &nbsp;&#9632; f64 &nbsp;&#9650; other; dashed roofs: more threads or "
       "a GPU";
  if (!overlay_.empty()) s += "; hollow: the overlaid runs";
  if (machines_.size() > 1) {
    QStringList dotted;
    for (std::size_t k = 1; k < machines_.size(); ++k)
      if (machines_[k].machine) dotted << QString::fromStdString(machines_[k].name).toHtmlEscaped();
    if (!dotted.isEmpty() && machines_[0].machine)
      s += QString("; solid roofs: %1, dotted: %2")
               .arg(QString::fromStdString(machines_[0].name).toHtmlEscaped(), dotted.join(", "));
    else if (!dotted.isEmpty())
      s += QString("; dotted roofs: %1").arg(dotted.join(", "));
  }
  if (size_by_time_) s += "; marker size: time per call";
  if (throttled)
    s += QString("; <span style=\"color:%1\">orange outline: GPU throttled</span>")
             .arg(kThrottledStroke);
  return s;
}

RooflinePaint RooflineView::paint() const {
  RooflinePaint paint{*drawn_, colours_, {}, by_, base_count_};
  for (std::size_t i : selected_) paint.selected.insert(table_offset() + i);
  if (comparison_)
    for (const auto& a : scene_.arrows)
      paint.arrow_colours.push_back(verdict_colour(comparison_->cases.at(a.pair).verdict));
  paint.runs = runs_;
  paint.size_by_time = size_by_time_;
  return paint;
}

void RooflineView::set_comparison(std::shared_ptr<const RunDocument> base,
                                  std::shared_ptr<const RunComparison> comparison) {
  if (!comparison && !comparison_) return;  // nothing compared before or now
  base_ = comparison ? std::move(base) : nullptr;
  comparison_ = base_ ? std::move(comparison) : nullptr;
  if (comparison_) overlay_.clear();
  refresh_drawn();
}

void RooflineView::set_overlay(std::vector<std::shared_ptr<const RunDocument>> runs) {
  if (runs.empty() && overlay_.empty()) return;
  overlay_ = std::move(runs);
  if (!overlay_.empty()) {
    base_.reset();
    comparison_.reset();
  }
  refresh_drawn();
}

void RooflineView::set_size_by_time(bool on) {
  size_by_time_ = on;  // the scene stays: only the markers change
  update();
}

bool RooflineView::two_machines() const {
  if (!comparison_ || !document_ || !base_) return false;
  const auto& head = document_->input.machine;
  const auto& base = base_->input.machine;
  return head && base && !head->fingerprint.empty() && !base->fingerprint.empty() &&
         head->fingerprint != base->fingerprint;
}

std::vector<const RunDocument*> RooflineView::drawn_runs() const {
  std::vector<const RunDocument*> out;
  if (!document_) return out;
  if (comparison_) out.push_back(base_.get());
  for (const auto& run : overlay_) out.push_back(run.get());
  out.push_back(document_.get());
  return out;
}

void RooflineView::refresh_drawn() {
  const auto& head = document_ ? document_->input.placements : kNone;
  const std::vector<const RunDocument*> runs = drawn_runs();
  // The other runs (a comparison's base, an overlay) first, then the document's placements;
  // rows the filter removed stay (indices are the table's) but are not placed.
  base_count_ = 0;
  runs_.clear();
  const std::vector<std::string> labels = run_labels(runs);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const bool mine = runs[k] == document_.get();
    runs_.emplace_back(base_count_, comparison_ ? mine ? "new run" : "base run" : labels[k]);
    if (!mine) base_count_ += runs[k]->input.placements.size();
  }
  if (runs.size() < 2) runs_.clear();
  if (runs.size() < 2 && !visible_) {  // the document's own placements, not copied
    drawn_ = &head;
  } else {
    copy_.clear();
    copy_.reserve(base_count_ + head.size());
    for (const RunDocument* run : runs)
      copy_.insert(copy_.end(), run->input.placements.begin(), run->input.placements.end());
    if (visible_)
      for (std::size_t i = 0; i + table_offset() < copy_.size(); ++i)
        if (!visible_->count(i)) copy_[table_offset() + i].placeable = false;
    drawn_ = &copy_;
  }
  refresh_roofs();
  recolour();
  rebuild();
}

void RooflineView::refresh_roofs() {
  // The roofs shown: each distinct model less the hidden levels and dtypes. One run or a
  // comparison on one machine: one model (the document's, else the base run's); a
  // comparison across machines: both; an overlay: every run's.
  roofs_.clear();
  machines_.clear();
  machine_of_.clear();
  std::vector<const RunDocument*> runs = drawn_runs();
  if (comparison_ && two_machines()) {
    runs = {document_.get(), base_.get()};  // the new run's roofs solid, the base's dotted
  } else if (comparison_ || runs.size() < 2) {
    const RunDocument* owner =
        document_ && document_->input.machine ? document_.get() : base_.get();
    runs.assign(owner && owner->input.machine ? 1 : 0, owner);
  }
  std::vector<const MachineModel*> models;  // as the runs carry them, distinct
  std::vector<std::size_t> model_of_run;
  for (const RunDocument* run : runs) {
    const MachineModel* m = run->input.machine ? &*run->input.machine : nullptr;
    std::size_t k = 0;
    while (k < models.size() && !(models[k] == m || (m && models[k] && *models[k] == *m))) ++k;
    if (k == models.size()) models.push_back(m);
    model_of_run.push_back(k);
  }
  roofs_.reserve(models.size());  // machines_ points into it
  const std::vector<std::string> names = machine_names(models);
  for (std::size_t k = 0; k < models.size(); ++k) {
    const MachineModel* m = models[k];
    MachineModel shown = m ? *m : MachineModel{};
    std::erase_if(shown.memory,
                  [&](const MemoryCeiling& c) { return hidden_.levels.count(c.level) > 0; });
    std::erase_if(shown.compute, [&](const ComputeCeiling& c) {
      return hidden_.dtypes.count(c.dtype) > 0 || hidden_.isas.count(c.isa) > 0;
    });
    roofs_.push_back(std::move(shown));
    machines_.push_back({m ? &roofs_.back() : nullptr, names[k]});
  }
  if (comparison_ || runs.size() < 2) return;
  for (std::size_t r = 0; r < runs.size(); ++r)
    machine_of_.insert(machine_of_.end(), runs[r]->input.placements.size(), model_of_run[r]);
}

void RooflineView::recolour() {
  std::size_t index = 0;  // colours_by visits the placements in order
  colours_ = colours_by(
      *drawn_, [&](const RooflinePlacement& p) { return colour_key(p, by_, index++, runs_); });
}

void RooflineView::rebuild() {
  SceneCanvas canvas;
  canvas.width = std::max(width(), 480);
  canvas.height = std::max(height(), 320);
  canvas.window = window_;
  // Only the scene is made again here (a zoom, a pan, a resize): the roofs and the colours
  // change with what is drawn (refresh_drawn).
  const MachineModel* machine = machines_.empty() ? nullptr : machines_.front().machine;
  if (comparison_)
    scene_ = comparison_scene(*drawn_, base_count_, comparison_->cases, machine, canvas,
                              machines_.size() > 1 ? machines_[1].machine : nullptr);
  else if (!machine_of_.empty())
    scene_ = overlay_scene(*drawn_, machine_of_, machines_, canvas);
  else
    scene_ = roofline_scene(*drawn_, machine, canvas,
                            document_ ? document_->input.fusion.pairs : kNoPairs,
                            document_ ? document_->input.power_caps : kNoCaps);
  update();
}

QString RooflineView::tooltip_at(QPointF position) const {
  if (!document_) return {};
  const auto hit = hit_test(scene_, position);
  if (!hit) return {};
  // The HTML report's words for a comparison's two runs; an overlay's run names.
  const std::string run = base_count_ == 0 ? ""
                          : comparison_    ? *hit < base_count_ ? "base" : "new"
                                           : run_name(runs_, *hit);
  for (const auto& pt : scene_.points)
    if (pt.placement == *hit) {
      QStringList lines;
      for (const auto& l : point_lines((*drawn_)[*hit], pt, run))
        lines << QString::fromStdString(l);
      return lines.join('\n');
    }
  return {};
}

void RooflineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  paint_roofline(p, scene_, paint());
}

void RooflineView::resizeEvent(QResizeEvent*) {
  rebuild();
}

}  // namespace ridgeline::gui
