#include "sweep_view.hpp"

#include <QPainter>
#include <algorithm>

#include "ridgeline/gui/sweep_painter.hpp"

namespace ridgeline::gui {

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(200);
}

void SweepView::set_machine(const MachineModel* machine, const std::vector<BandwidthMark>& marks) {
  scene_ = machine ? sweep_scene(*machine, marks) : std::nullopt;
  update();
}

void SweepView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  if (!scene_) {
    p.drawText(rect(), Qt::AlignCenter,
               "The machine model has no memory sweep (models probed before the sweep was kept)");
    return;
  }
  const double scale = std::min(width() / scene_->width, height() / scene_->height);
  p.scale(scale, scale);
  paint_sweep(p, *scene_);
}

}  // namespace ridgeline::gui
