#include "ridgeline/analysis/scene_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ridgeline::scene {

double text_width(std::string_view text, double font_px) {
  // Advance widths in em, rounded up from DejaVu Sans (the widest of the usual
  // sans-serif fallbacks): digits 0.64, most capitals up to 0.78, wide letters 1.0.
  double em = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: same code point
    if (c >= 0x80) {
      em += 1.0;  // any other code point: as wide as a wide letter
    } else if (c == 'M' || c == 'W' || c == 'm' || c == 'w' || c == '@' || c == '%') {
      em += 1.0;
    } else if (c >= 'A' && c <= 'Z') {
      em += 0.8;
    } else if (c >= '0' && c <= '9') {
      em += 0.66;
    } else if (c == 'i' || c == 'l' || c == 'j' || c == '.' || c == ',' || c == ':' || c == ';' ||
               c == '\'' || c == '|' || c == '!') {
      em += 0.34;
    } else if (c == ' ' || c == '(' || c == ')' || c == '/' || c == '[' || c == ']' || c == 'f' ||
               c == 't' || c == 'r' || c == '-') {
      em += 0.46;
    } else {
      em += 0.66;
    }
  }
  return em * font_px;
}

namespace {

Point rotate(Point p, double cos_a, double sin_a) {
  return {p.x * cos_a - p.y * sin_a, p.x * sin_a + p.y * cos_a};
}

// Projections of a quad's corners on an axis: min and max.
std::pair<double, double> project(const Quad& q, Point axis) {
  double lo = q.corners[0].x * axis.x + q.corners[0].y * axis.y, hi = lo;
  for (const auto& c : q.corners) {
    const double v = c.x * axis.x + c.y * axis.y;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return {lo, hi};
}

bool separated_along_edges(const Quad& a, const Quad& b) {
  for (std::size_t i = 0; i < 4; ++i) {
    const Point& p = a.corners[i];
    const Point& q = a.corners[(i + 1) % 4];
    const Point axis{q.y - p.y, p.x - q.x};  // the edge's normal
    if (axis.x == 0 && axis.y == 0) continue;
    auto [alo, ahi] = project(a, axis);
    auto [blo, bhi] = project(b, axis);
    if (ahi <= blo || bhi <= alo) return true;
  }
  return false;
}

}  // namespace

Quad text_box(Point anchor, double angle_deg, double width, double font_px, double pad) {
  const double a = angle_deg * std::numbers::pi / 180;
  const double c = std::cos(a), s = std::sin(a);
  const double top = -text_ascent(font_px) - pad, bottom = text_descent(font_px) + pad;
  const std::array<Point, 4> local{Point{-pad, top}, Point{width + pad, top},
                                   Point{width + pad, bottom}, Point{-pad, bottom}};
  Quad q;
  for (std::size_t i = 0; i < 4; ++i) {
    const Point r = rotate(local[i], c, s);
    q.corners[i] = {anchor.x + r.x, anchor.y + r.y};
  }
  return q;
}

Quad segment_box(Point a, Point b, double half_width) {
  double dx = b.x - a.x, dy = b.y - a.y;
  const double len = std::hypot(dx, dy);
  if (len > 0) {
    dx /= len;
    dy /= len;
  } else {
    dx = 1;
    dy = 0;
  }
  const Point n{-dy * half_width, dx * half_width};
  return {{Point{a.x + n.x, a.y + n.y}, Point{b.x + n.x, b.y + n.y}, Point{b.x - n.x, b.y - n.y},
           Point{a.x - n.x, a.y - n.y}}};
}

bool overlap(const Quad& a, const Quad& b) {
  return !separated_along_edges(a, b) && !separated_along_edges(b, a);
}

bool inside(const Quad& q, double left, double top, double right, double bottom) {
  return std::all_of(q.corners.begin(), q.corners.end(), [&](const Point& p) {
    return p.x >= left && p.x <= right && p.y >= top && p.y <= bottom;
  });
}

}  // namespace ridgeline::scene
