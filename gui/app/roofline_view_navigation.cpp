// The chart's navigation: wheel zoom about the pointer, drag to pan, Shift + drag for a
// rubber band, the keys (+ - arrows, Backspace / Ctrl+Z, Home) and the hover tooltip.
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "roofline_view.hpp"

namespace ridgeline::gui {

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
    if (pt.placement >= table_offset() && area.contains(QPointF(pt.x, pt.y)))
      out.insert(pt.placement - table_offset());
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
    if (*hit >= table_offset()) emit placementClicked(*hit - table_offset());  // the table's row
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
