#include "roofline_view.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRubberBand>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ridgeline/gui/roofline_painter.hpp"

namespace ridgeline::gui {

namespace {
const std::vector<RooflinePlacement> kNone;
const std::vector<FusionPair> kNoPairs;
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

void RooflineView::set_hidden(std::set<std::string> levels, std::set<std::string> dtypes) {
  hidden_levels_ = std::move(levels);
  hidden_dtypes_ = std::move(dtypes);
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

std::vector<std::string> RooflineView::roof_levels() const {
  if (!document_ || !document_->input.machine) return {};
  return distinct(document_->input.machine->memory, &MemoryCeiling::level);
}

std::vector<std::string> RooflineView::roof_dtypes() const {
  if (!document_ || !document_->input.machine) return {};
  return distinct(document_->input.machine->compute, &ComputeCeiling::dtype);
}

QString RooflineView::legend_html() const {
  QString s;
  for (const auto& [key, colour] : colours_)
    s += QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2&nbsp;&nbsp; ")
             .arg(QString::fromStdString(colour), QString::fromStdString(key).toHtmlEscaped());
  bool throttled = false;
  for (const auto& p : *drawn_) throttled |= p.placeable && p.throttled;
  return s +
         "&nbsp; &#9679; f32 &nbsp;&#9632; f64 &nbsp;&#9650; other; dashed roofs: more "
         "threads or a GPU" +
         (throttled ? QString("; <span style=\"color:%1\">orange outline: GPU throttled</span>")
                          .arg(kThrottledStroke)
                    : QString());
}

RooflinePaint RooflineView::paint() const {
  RooflinePaint paint{*drawn_, colours_, {}, by_, base_count_};
  for (std::size_t i : selected_) paint.selected.insert(base_count_ + i);
  if (comparison_)
    for (const auto& a : scene_.arrows)
      paint.arrow_colours.push_back(verdict_colour(comparison_->cases.at(a.pair).verdict));
  return paint;
}

void RooflineView::set_comparison(std::shared_ptr<const RunDocument> base,
                                  std::shared_ptr<const RunComparison> comparison) {
  if (!comparison && !comparison_) return;  // nothing compared before or now
  base_ = comparison ? std::move(base) : nullptr;
  comparison_ = base_ ? std::move(comparison) : nullptr;
  refresh_drawn();
}

void RooflineView::refresh_drawn() {
  const auto& head = document_ ? document_->input.placements : kNone;
  base_count_ = comparison_ ? base_->input.placements.size() : 0;
  if (!comparison_ && !visible_) {  // the document's own placements, not copied
    drawn_ = &head;
  } else {
    // The base run's placements first (a comparison), then the document's; rows the filter
    // removed stay (indices are the table's) but are not placed.
    copy_.clear();
    if (comparison_) copy_ = base_->input.placements;
    copy_.insert(copy_.end(), head.begin(), head.end());
    if (visible_)
      for (std::size_t i = 0; i < head.size(); ++i)
        if (!visible_->count(i)) copy_[base_count_ + i].placeable = false;
    drawn_ = &copy_;
  }
  refresh_roofs();
  recolour();
  rebuild();
}

void RooflineView::refresh_roofs() {
  // The roofs shown: the model (the document's, else a comparison's base run's) less the
  // hidden levels and dtypes.
  roofs_.reset();
  const RunDocument* owner = document_ && document_->input.machine ? document_.get() : base_.get();
  if (!owner || !owner->input.machine) return;
  roofs_ = *owner->input.machine;
  std::erase_if(roofs_->memory,
                [&](const MemoryCeiling& m) { return hidden_levels_.count(m.level) > 0; });
  std::erase_if(roofs_->compute,
                [&](const ComputeCeiling& c) { return hidden_dtypes_.count(c.dtype) > 0; });
}

void RooflineView::recolour() {
  std::size_t index = 0;  // colours_by visits the placements in order
  colours_ = colours_by(*drawn_, [&](const RooflinePlacement& p) {
    return colour_key(p, by_, index++, base_count_);
  });
}

void RooflineView::rebuild() {
  SceneCanvas canvas;
  canvas.width = std::max(width(), 480);
  canvas.height = std::max(height(), 320);
  canvas.window = window_;
  // Only the scene is made again here (a zoom, a pan, a resize): the roofs and the colours
  // change with what is drawn (refresh_drawn).
  const MachineModel* machine = roofs_ ? &*roofs_ : nullptr;
  scene_ = comparison_ ? comparison_scene(*drawn_, base_count_, comparison_->cases, machine, canvas)
                       : roofline_scene(*drawn_, machine, canvas,
                                        document_ ? document_->input.fusion.pairs : kNoPairs);
  update();
}

QString RooflineView::tooltip_at(QPointF position) const {
  if (!document_) return {};
  const auto hit = hit_test(scene_, position);
  if (!hit) return {};
  const std::string run = base_count_ == 0 ? "" : *hit < base_count_ ? "base" : "new";
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

SceneWindow RooflineView::shown() const {
  return {std::log10(scene_.x.lo), std::log10(scene_.x.hi), std::log10(scene_.y.lo),
          std::log10(scene_.y.hi)};
}

void RooflineView::set_window(std::optional<SceneWindow> window, bool undoable) {
  if (undoable) undo_.push_back(window_);
  window_ = window;
  rebuild();
}

void RooflineView::zoom(double factor, QPointF at) {
  if (!(factor > 0)) return;
  const SceneCanvas& c = scene_.canvas;
  SceneWindow w = shown();
  const double fx =
      std::clamp((at.x() - c.plot_left()) / (c.plot_right() - c.plot_left()), 0.0, 1.0);
  const double fy =
      std::clamp((c.plot_bottom() - at.y()) / (c.plot_bottom() - c.plot_top()), 0.0, 1.0);
  const double cx = w.x_lo + fx * (w.x_hi - w.x_lo), cy = w.y_lo + fy * (w.y_hi - w.y_lo);
  w = {cx - (cx - w.x_lo) / factor, cx + (w.x_hi - cx) / factor, cy - (cy - w.y_lo) / factor,
       cy + (w.y_hi - cy) / factor};
  set_window(w, true);
}

SceneWindow RooflineView::shifted(SceneWindow w, double dx, double dy) const {
  const SceneCanvas& c = scene_.canvas;
  const double sx = (w.x_hi - w.x_lo) / (c.plot_right() - c.plot_left());
  const double sy = (w.y_hi - w.y_lo) / (c.plot_bottom() - c.plot_top());
  return {w.x_lo - dx * sx, w.x_hi - dx * sx, w.y_lo + dy * sy, w.y_hi + dy * sy};
}

void RooflineView::pan(double dx, double dy) {
  set_window(shifted(shown(), dx, dy), true);
}

void RooflineView::undo_zoom() {
  if (undo_.empty()) return;
  window_ = undo_.back();
  undo_.pop_back();
  rebuild();
}

void RooflineView::reset_zoom() {
  if (window_) set_window(std::nullopt, true);
}

std::set<std::size_t> RooflineView::placements_in(const QRectF& area) const {
  std::set<std::size_t> out;
  for (const auto& pt : scene_.points)
    if (pt.placement >= base_count_ && area.contains(QPointF(pt.x, pt.y)))
      out.insert(pt.placement - base_count_);
  return out;
}

void RooflineView::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)) {
    if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, this);
    band_from_ = event->position().toPoint();
    band_->setGeometry(QRect(band_from_, QSize()));
    band_->show();
    return;
  }
  if (const auto hit = hit_test(scene_, event->position())) {
    if (*hit >= base_count_) emit placementClicked(*hit - base_count_);  // the table's row
    return;
  }
  if (event->button() == Qt::LeftButton) {  // empty space: a pan starts
    drag_from_ = event->position();
    drag_window_ = shown();
    drag_moved_ = false;
  }
}

void RooflineView::mouseMoveEvent(QMouseEvent* event) {
  if (band_ && band_->isVisible()) {
    band_->setGeometry(QRect(band_from_, event->position().toPoint()).normalized());
    return;
  }
  if (!drag_from_ || !(event->buttons() & Qt::LeftButton)) return;
  // Each move pans from where the drag started; the whole drag is one undo step.
  const QPointF d = event->position() - *drag_from_;
  set_window(shifted(drag_window_, d.x(), d.y()), !drag_moved_);
  drag_moved_ = true;
}

void RooflineView::mouseReleaseEvent(QMouseEvent*) {
  drag_from_.reset();
  if (band_ && band_->isVisible()) {
    band_->hide();
    emit placementsBanded(placements_in(QRectF(band_->geometry())));
  }
}

void RooflineView::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches != 0) zoom(std::pow(1.25, notches), event->position());
}

void RooflineView::keyPressEvent(QKeyEvent* event) {
  const QPointF centre((scene_.canvas.plot_left() + scene_.canvas.plot_right()) / 2,
                       (scene_.canvas.plot_top() + scene_.canvas.plot_bottom()) / 2);
  const double step = 0.1 * (scene_.canvas.plot_right() - scene_.canvas.plot_left());
  if (event->matches(QKeySequence::Undo) || event->key() == Qt::Key_Backspace) return undo_zoom();
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      return zoom(1.25, centre);
    case Qt::Key_Minus:
      return zoom(0.8, centre);
    case Qt::Key_Left:
      return pan(step, 0);
    case Qt::Key_Right:
      return pan(-step, 0);
    case Qt::Key_Up:
      return pan(0, step);
    case Qt::Key_Down:
      return pan(0, -step);
    case Qt::Key_Home:
    case Qt::Key_0:
      return reset_zoom();
    default:
      QWidget::keyPressEvent(event);
  }
}

bool RooflineView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString tip = tooltip_at(help->pos());
    if (tip.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), tip, this);
    return true;
  }
  return QWidget::event(event);
}

}  // namespace ridgeline::gui
