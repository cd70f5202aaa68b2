#include "roofline_view.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "ridgeline/gui/roofline_painter.hpp"

namespace ridgeline::gui {

RooflineView::RooflineView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(480, 320);
  setMouseTracking(true);
  rebuild();
}

void RooflineView::set_document(std::shared_ptr<const RunDocument> document) {
  document_ = std::move(document);
  selected_.clear();
  rebuild();
}

void RooflineView::set_selected(std::set<std::size_t> placements) {
  selected_ = std::move(placements);
  update();
}

void RooflineView::rebuild() {
  SceneCanvas canvas;
  canvas.width = std::max(width(), 480);
  canvas.height = std::max(height(), 320);
  static const std::vector<RooflinePlacement> none;
  const auto& placements = document_ ? document_->input.placements : none;
  const MachineModel* machine =
      document_ && document_->input.machine ? &*document_->input.machine : nullptr;
  scene_ = roofline_scene(placements, machine, canvas,
                          document_ ? document_->input.fusion.pairs : std::vector<FusionPair>{});
  colours_ = backend_colours(placements);
  update();
}

QString RooflineView::tooltip_at(QPointF position) const {
  if (!document_) return {};
  const auto hit = hit_test(scene_, position);
  if (!hit) return {};
  for (const auto& pt : scene_.points)
    if (pt.placement == *hit) {
      QStringList lines;
      for (const auto& l : point_lines(document_->input.placements[*hit], pt))
        lines << QString::fromStdString(l);
      return lines.join('\n');
    }
  return {};
}

void RooflineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  static const std::vector<RooflinePlacement> none;
  paint_roofline(p, scene_, {document_ ? document_->input.placements : none, colours_, selected_});
}

void RooflineView::resizeEvent(QResizeEvent*) {
  rebuild();
}

void RooflineView::mousePressEvent(QMouseEvent* event) {
  if (const auto hit = hit_test(scene_, event->position())) emit placementClicked(*hit);
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
