#include "roofline_view.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

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

namespace {
const std::vector<RooflinePlacement> kNone;
}

void RooflineView::set_colour_by(ColourBy by) {
  by_ = by;
  rebuild();
}

void RooflineView::set_hidden(std::set<std::string> levels, std::set<std::string> dtypes) {
  hidden_levels_ = std::move(levels);
  hidden_dtypes_ = std::move(dtypes);
  rebuild();
}

std::vector<std::string> RooflineView::roof_levels() const {
  std::vector<std::string> out;
  if (document_ && document_->input.machine)
    for (const auto& m : document_->input.machine->memory)
      if (std::find(out.begin(), out.end(), m.level) == out.end()) out.push_back(m.level);
  return out;
}

std::vector<std::string> RooflineView::roof_dtypes() const {
  std::vector<std::string> out;
  if (document_ && document_->input.machine)
    for (const auto& c : document_->input.machine->compute)
      if (std::find(out.begin(), out.end(), c.dtype) == out.end()) out.push_back(c.dtype);
  return out;
}

QString RooflineView::legend_html() const {
  QString s;
  for (const auto& [key, colour] : colours_)
    s += QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2&nbsp;&nbsp; ")
             .arg(QString::fromStdString(colour), QString::fromStdString(key).toHtmlEscaped());
  return s +
         "&nbsp; &#9679; f32 &nbsp;&#9632; f64 &nbsp;&#9650; other; dashed roofs: more "
         "threads or a GPU";
}

RooflinePaint RooflineView::paint() const {
  return {document_ ? document_->input.placements : kNone, colours_, selected_, by_};
}

void RooflineView::rebuild() {
  SceneCanvas canvas;
  canvas.width = std::max(width(), 480);
  canvas.height = std::max(height(), 320);
  const auto& placements = document_ ? document_->input.placements : kNone;
  // The roofs shown: the model less the hidden levels and dtypes.
  std::optional<MachineModel> shown;
  if (document_ && document_->input.machine) {
    shown = *document_->input.machine;
    std::erase_if(shown->memory,
                  [&](const MemoryCeiling& m) { return hidden_levels_.count(m.level) > 0; });
    std::erase_if(shown->compute,
                  [&](const ComputeCeiling& c) { return hidden_dtypes_.count(c.dtype) > 0; });
  }
  scene_ = roofline_scene(placements, shown ? &*shown : nullptr, canvas,
                          document_ ? document_->input.fusion.pairs : std::vector<FusionPair>{});
  colours_ = colours_by(placements, [&](const RooflinePlacement& p) { return colour_key(p, by_); });
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
