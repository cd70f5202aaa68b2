#include "ridgeline/gui/roofline_painter.hpp"

#include <QPainterPath>
#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ridgeline::gui {

namespace {

constexpr double kHitRadius = 7;  // the markers fit inside it (as the scene's clearance)

QColor colour(const std::string& hex) {
  return QColor(QString::fromStdString(hex));
}

void axes(QPainter& p, const RooflineScene& sc) {
  const SceneCanvas& c = sc.canvas;
  const QRectF plot(c.plot_left(), c.plot_top(), c.plot_right() - c.plot_left(),
                    c.plot_bottom() - c.plot_top());
  p.fillRect(plot, Qt::white);
  p.setPen(QColor("#e9ecef"));
  for (const auto& t : sc.x.ticks)
    p.drawLine(QPointF(t.pixel, plot.top()), QPointF(t.pixel, plot.bottom()));
  for (const auto& t : sc.y.ticks)
    p.drawLine(QPointF(plot.left(), t.pixel), QPointF(plot.right(), t.pixel));
  p.setPen(QColor("#868e96"));
  p.drawRect(plot);
  p.setPen(QColor("#212529"));
  const QFontMetricsF m(p.font());
  for (const auto& t : sc.x.ticks) {
    const QString s = QString::fromStdString(t.text);
    p.drawText(QPointF(t.pixel - m.horizontalAdvance(s) / 2, plot.bottom() + 18), s);
  }
  for (const auto& t : sc.y.ticks) {
    const QString s = QString::fromStdString(t.text);
    p.drawText(QPointF(plot.left() - 6 - m.horizontalAdvance(s), t.pixel + m.ascent() / 2 - 1), s);
  }
  const QString xl = "arithmetic intensity (FLOP/byte)", yl = "performance (GFLOP/s)";
  p.drawText(QPointF((plot.left() + plot.right() - m.horizontalAdvance(xl)) / 2, c.height - 14),
             xl);
  p.save();
  p.translate(18, (plot.top() + plot.bottom()) / 2);
  p.rotate(-90);
  p.drawText(QPointF(-m.horizontalAdvance(yl) / 2, 0), yl);
  p.restore();
}

void marker(QPainter& p, const std::string& dtype, QPointF at, double scale) {
  if (dtype == "f32") {
    p.drawEllipse(at, 5.5 * scale, 5.5 * scale);
  } else if (dtype == "f64") {
    p.drawRect(QRectF(at.x() - 5 * scale, at.y() - 5 * scale, 10 * scale, 10 * scale));
  } else {
    p.drawPolygon(QPolygonF({QPointF(at.x(), at.y() - 6 * scale),
                             QPointF(at.x() + 6 * scale, at.y() + 4 * scale),
                             QPointF(at.x() - 6 * scale, at.y() + 4 * scale)}));
  }
}

// The fastest and slowest time per call among the placed points (0, 0 where none).
std::pair<double, double> time_range(const RooflineScene& sc,
                                     const std::vector<RooflinePlacement>& placements) {
  double lo = 0, hi = 0;
  for (const auto& pt : sc.points) {
    if (pt.placement >= placements.size()) continue;
    const double s = placements[pt.placement].seconds;
    if (!(s > 0) || !std::isfinite(s)) continue;
    lo = lo == 0 ? s : std::min(lo, s);
    hi = std::max(hi, s);
  }
  return {lo, hi};
}

}  // namespace

void paint_roofline(QPainter& p, const RooflineScene& sc, const RooflinePaint& paint) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  QFont font = p.font();
  font.setPixelSize(12);
  p.setFont(font);
  axes(p, sc);
  const SceneCanvas& c = sc.canvas;
  p.setClipRect(QRectF(c.plot_left(), c.plot_top(), c.plot_right() - c.plot_left(),
                       c.plot_bottom() - c.plot_top()));
  for (const auto& l : sc.lines) {
    const bool memory = l.kind == SceneLine::Kind::memory;
    QPen pen(memory ? QColor(level_colour(l.level)) : QColor("#212529"), memory ? 1.8 : 2);
    if (const std::vector<double> dashes = roof_dashes(l); !dashes.empty()) {
      QList<qreal> pattern;  // Qt counts dashes in pen widths
      for (double d : dashes) pattern << d / pen.widthF();
      pen.setDashPattern(pattern);
    }
    p.setPen(pen);
    p.drawLine(QPointF(l.x0, l.y0), QPointF(l.x1, l.y1));
  }
  p.setPen(Qt::NoPen);
  for (const auto& r : sc.ridges) {
    p.setBrush(QColor(level_colour(r.level)));
    p.drawEllipse(QPointF(r.x, r.y), 3, 3);
  }
  QFont label = font;
  label.setPixelSize(static_cast<int>(c.label_px));
  p.setFont(label);
  for (const auto& l : sc.labels) {
    p.save();
    p.translate(l.x, l.y);
    p.rotate(l.angle);
    // Over a white halo, as the report draws it: a roof crossing the label leaves it legible.
    QPainterPath text;
    text.addText(QPointF(0, 0), label, QString::fromStdString(l.text));
    p.strokePath(text, QPen(Qt::white, 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.fillPath(text, l.level.empty() ? QColor("#212529") : QColor(level_colour(l.level)));
    p.restore();
  }
  // Each einsum contraction's lowerings joined, as the report draws them.
  p.setPen(QPen(QColor("#868e96"), 1.2, Qt::DotLine));
  p.setBrush(Qt::NoBrush);
  for (const auto& j : sc.joins)
    for (const auto& xy : j.others) p.drawLine(QPointF(j.best.x, j.best.y), QPointF(xy.x, xy.y));
  for (std::size_t i = 0; i < sc.arrows.size(); ++i) {
    const SceneArrow& a = sc.arrows[i];
    const QColor ink(i < paint.arrow_colours.size() ? colour(paint.arrow_colours[i])
                                                    : QColor("#343a40"));
    p.setPen(QPen(ink, 1.5));
    p.drawLine(QPointF(a.from.x, a.from.y), QPointF(a.to.x, a.to.y));
    p.setBrush(ink);
    p.drawPolygon(QPolygonF({QPointF(a.head[0].x, a.head[0].y), QPointF(a.head[1].x, a.head[1].y),
                             QPointF(a.head[2].x, a.head[2].y)}));
  }
  // The hierarchical view: a selected case measured at several levels (counted bytes per
  // level) has a point per level, joined so that the levels read as one case.
  // One pass over the points (a rubber band may select thousands of cases).
  std::map<std::size_t, QPolygonF> lines;
  if (!paint.selected.empty())
    for (const auto& pt : sc.points)
      if (paint.selected.count(pt.placement)) lines[pt.placement] << QPointF(pt.x, pt.y);
  p.setPen(QPen(QColor("#212529"), 1.5, Qt::DashLine));
  p.setBrush(Qt::NoBrush);
  for (auto& [placement, line] : lines) {
    if (line.size() < 2) continue;
    std::sort(line.begin(), line.end(), [](QPointF a, QPointF b) { return a.x() < b.x(); });
    p.drawPolyline(line);
  }
  // Each kind of marker (shape, fill, stroke) is drawn once into a sprite and the sprite
  // copied to every point of its kind: 10,000 antialiased polygons took 29 ms, too slow for
  // a pan (docs/gui.md).
  std::map<std::tuple<std::string, QRgb, QRgb, bool, double>, QImage> sprites;
  const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1;
  const auto [fastest, slowest] =
      paint.size_by_time ? time_range(sc, paint.placements) : std::pair<double, double>{};
  for (const auto& pt : sc.points) {
    if (pt.placement >= paint.placements.size()) continue;
    const RooflinePlacement& pl = paint.placements[pt.placement];
    const auto it = paint.colours.find(colour_key(pl, paint.by, pt.placement, paint.runs));
    const bool selected = paint.selected.count(pt.placement) > 0;
    const QColor key = it == paint.colours.end() ? QColor("#495057") : colour(it->second);
    const bool base = pt.placement < paint.base_count;  // hollow, in its colour
    const QColor fill = base ? QColor(Qt::white) : key;
    const QColor stroke = pl.above_roof  ? QColor("#e03131")
                          : pl.throttled ? QColor(kThrottledStroke)
                          : base         ? key
                                         : QColor("#212529");
    const std::string shape = pl.dtype == "f32" || pl.dtype == "f64" ? pl.dtype : "";
    const double scale = paint.size_by_time ? time_scale(pl.seconds, fastest, slowest) : 1.0;
    // The markers reach 6.5 px times the scale from their centre, plus the stroke.
    const int side = 2 * static_cast<int>(std::ceil(6.5 * scale + 2));
    auto [sprite, made] = sprites.try_emplace({shape, fill.rgba(), stroke.rgba(), selected, scale});
    if (made) {
      QImage& img = sprite->second;
      img = QImage(static_cast<int>(side * dpr), static_cast<int>(side * dpr),
                   QImage::Format_ARGB32_Premultiplied);
      img.setDevicePixelRatio(dpr);
      img.fill(Qt::transparent);
      QPainter sp(&img);
      sp.setRenderHint(QPainter::Antialiasing);
      sp.setBrush(fill);
      sp.setPen(QPen(stroke, selected ? 3 : 1.5));
      marker(sp, pl.dtype, QPointF(side / 2.0, side / 2.0), scale);
    }
    p.drawImage(QPointF(std::round(pt.x) - side / 2.0, std::round(pt.y) - side / 2.0),
                sprite->second);
  }
  p.restore();
}

std::string run_name(const RunSpans& runs, std::size_t index) {
  std::string name = "this run";
  for (const auto& [first, run] : runs)
    if (first <= index) name = run;
  return name;
}

std::string colour_key(const RooflinePlacement& p, ColourBy by, std::size_t index,
                       const RunSpans& runs) {
  switch (by) {
    case ColourBy::run:
      return run_name(runs, index);
    case ColourBy::op:
      return p.op.empty() ? "(foreign)" : p.op;
    case ColourBy::bound:
      return p.bound.empty() ? "(no roof)" : to_string(p.bound);
    case ColourBy::dtype:
      return p.dtype.empty() ? "(unknown)" : p.dtype;
    case ColourBy::backend:
      break;
  }
  return p.backend;
}

double time_scale(double seconds, double fastest, double slowest) {
  if (!(seconds > 0) || !(fastest > 0) || !(slowest > fastest)) return 1.0;
  const double f = std::clamp(std::log(seconds / fastest) / std::log(slowest / fastest), 0.0, 1.0);
  return 0.6 + 0.3 * std::round(f * 4);  // 0.6, 0.9, 1.2, 1.5, 1.8: few sprites
}

QImage roofline_image(const RooflineScene& scene, const RooflinePaint& paint) {
  QImage image(static_cast<int>(scene.canvas.width), static_cast<int>(scene.canvas.height),
               QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  paint_roofline(painter, scene, paint);
  return image;
}

std::optional<std::size_t> hit_test(const RooflineScene& scene, QPointF at) {
  std::optional<std::size_t> best;
  double nearest = kHitRadius;
  for (const auto& pt : scene.points) {
    const double d = std::hypot(pt.x - at.x(), pt.y - at.y());
    if (d <= nearest) {
      nearest = d;
      best = pt.placement;
    }
  }
  return best;
}

}  // namespace ridgeline::gui
