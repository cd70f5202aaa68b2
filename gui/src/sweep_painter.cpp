#include "ridgeline/gui/sweep_painter.hpp"

#include <QPolygonF>

#include "ridgeline/reports/roofline_style.hpp"

namespace ridgeline::gui {

void paint_sweep(QPainter& p, const SweepScene& sc) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  QFont font = p.font();
  font.setPixelSize(11);
  p.setFont(font);
  const QFontMetricsF m(font);
  const QRectF plot(sc.left, sc.top, sc.right - sc.left, sc.bottom - sc.top);
  p.fillRect(plot, Qt::white);
  for (const auto& t : sc.x_ticks) {
    p.setPen(QColor("#e9ecef"));
    p.drawLine(QPointF(t.pixel, sc.top), QPointF(t.pixel, sc.bottom));
    p.setPen(QColor("#212529"));
    const QString s = QString::fromStdString(t.text);
    p.drawText(QPointF(t.pixel - m.horizontalAdvance(s) / 2, sc.bottom + 14), s);
  }
  for (const auto& t : sc.y_ticks) {
    p.setPen(QColor("#e9ecef"));
    p.drawLine(QPointF(sc.left, t.pixel), QPointF(sc.right, t.pixel));
    p.setPen(QColor("#212529"));
    const QString s = QString::fromStdString(t.text);
    p.drawText(QPointF(sc.left - 6 - m.horizontalAdvance(s), t.pixel + m.ascent() / 2 - 1), s);
  }
  p.setPen(QColor("#868e96"));
  p.drawRect(plot);
  p.setPen(QColor("#212529"));
  const QString title = QString::fromStdString(sc.x_title);
  p.drawText(QPointF((sc.left + sc.right - m.horizontalAdvance(title)) / 2, sc.bottom + 32), title);
  for (const auto& h : sc.hwloc) {
    const QColor ink(h.off ? "#e03131" : "#868e96");
    p.setPen(QPen(ink, 1, Qt::DashLine));
    p.drawLine(QPointF(h.x, sc.top), QPointF(h.x, sc.bottom));
    p.save();
    p.translate(h.x - 3, sc.top + 4);
    p.rotate(-90);
    p.setPen(ink);
    const QString s = QString::fromStdString(h.text);
    p.drawText(QPointF(-m.horizontalAdvance(s), 0), s);
    p.restore();
  }
  for (const auto& b : sc.bands) {
    QColor c(sweep_colour(b.kernel, b.threads));
    c.setAlphaF(0.25);
    p.setPen(QPen(c, 7, Qt::SolidLine, Qt::FlatCap));
    p.drawLine(QPointF(b.x0, b.y), QPointF(b.x1, b.y));
    if (b.label) {
      p.setPen(QColor("#1c7ed6"));
      p.drawText(QPointF(b.x0, b.y - 6), QString::fromStdString(b.name));
    }
  }
  for (const auto& l : sc.sweeps) {
    const QColor c(sweep_colour(l.kernel, l.threads));
    QPolygonF line;
    for (const auto& pt : l.points) line << QPointF(pt.x, pt.y);
    p.setPen(QPen(c, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawPolyline(line);
    p.setPen(QPen(c, 2));
    p.drawLine(QPointF(sc.right + 10, l.legend_y), QPointF(sc.right + 28, l.legend_y));
    p.setPen(QColor("#212529"));
    p.drawText(QPointF(sc.right + 32, l.legend_y + m.ascent() / 2 - 1),
               QString::fromStdString(l.legend));
  }
  p.restore();
}

QImage sweep_image(const SweepScene& scene) {
  QImage image(static_cast<int>(scene.width), static_cast<int>(scene.height),
               QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  paint_sweep(painter, scene);
  return image;
}

}  // namespace ridgeline::gui
