#pragma once
// Geometry of the roofline scene's labels, in canvas pixels (y grows downwards, angles in
// degrees clockwise, as SVG's rotate()). Text extents are estimated from the characters,
// on the wide side of common sans-serif fonts, so a label's box holds the drawn text.
#include <array>
#include <string_view>

namespace ridgeline::scene {

struct Point {
  double x = 0, y = 0;
};

// A convex quadrilateral: a label's box or a line's thin box, corners in order.
struct Quad {
  std::array<Point, 4> corners;
};

// Estimated advance width of `text` (UTF-8) at `font_px`, at least as wide as DejaVu Sans
// and Liberation Sans draw it.
double text_width(std::string_view text, double font_px);

// Ascent and descent of a line of text at `font_px` (the box above and below the baseline).
inline double text_ascent(double font_px) {
  return 0.95 * font_px;
}
inline double text_descent(double font_px) {
  return 0.3 * font_px;
}

// The box of a label whose baseline starts at `anchor`, rotated by `angle_deg` about it,
// `width` long, grown by `pad` on every side.
Quad text_box(Point anchor, double angle_deg, double width, double font_px, double pad = 0);
// A segment as a box `half_width` either side of it.
Quad segment_box(Point a, Point b, double half_width);

// Whether two convex quadrilaterals share interior points (separating axis theorem).
bool overlap(const Quad& a, const Quad& b);
// Whether every corner lies within [left, right] x [top, bottom].
bool inside(const Quad& q, double left, double top, double right, double bottom);

}  // namespace ridgeline::scene
