#pragma once
// Checks of a roofline scene that do not reuse the scene's own geometry: label boxes are
// rebuilt here from their anchor, angle and width, and overlap is found by sampling.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "ridgeline/analysis/roofline_scene.hpp"

namespace ridgeline::scene_checks {

// Whether (px, py) lies inside label `l`'s box shrunk by `inset` (text frame: x from 0 to
// width, y from -0.95 to +0.3 font sizes; the box the scene says it reserves).
inline bool in_label(const SceneLabel& l, double font, double px, double py, double inset) {
  const double a = -l.angle * std::numbers::pi / 180;  // undo the rotation
  const double dx = px - l.x, dy = py - l.y;
  const double u = dx * std::cos(a) - dy * std::sin(a);
  const double v = dx * std::sin(a) + dy * std::cos(a);
  return u > inset && u < l.width - inset && v > -0.95 * font + inset && v < 0.3 * font - inset;
}

// Samples every pixel of label a (every 0.5 px) and asks whether it is inside label b.
inline bool labels_overlap(const SceneLabel& a, const SceneLabel& b, double font) {
  const double t = -a.angle * std::numbers::pi / 180;
  for (double u = 0; u <= a.width; u += 0.5)
    for (double v = -0.95 * font; v <= 0.3 * font; v += 0.5) {
      // Back from a's text frame to the canvas.
      const double px = a.x + u * std::cos(-t) - v * std::sin(-t);
      const double py = a.y + u * std::sin(-t) + v * std::cos(-t);
      if (in_label(b, font, px, py, 0.25)) return true;
    }
  return false;
}

inline bool finite_inside(double v, double lo, double hi) {
  return std::isfinite(v) && v >= lo - 1e-6 && v <= hi + 1e-6;
}

// Everything drawn is inside the canvas, no two labels overlap, no label covers a point,
// every roof line has its label on the plot or in the key.
inline void expect_sound_scene(const RooflineScene& s, const std::string& context) {
  const SceneCanvas& c = s.canvas;
  for (const auto& l : s.lines) {
    for (double x : {l.x0, l.x1})
      EXPECT_TRUE(finite_inside(x, c.plot_left(), c.plot_right())) << context << ": line x " << x;
    for (double y : {l.y0, l.y1})
      EXPECT_TRUE(finite_inside(y, c.plot_top(), c.plot_bottom())) << context << ": line y " << y;
  }
  for (const auto& p : s.points) {
    EXPECT_TRUE(finite_inside(p.x, c.plot_left(), c.plot_right())) << context << ": point x";
    EXPECT_TRUE(finite_inside(p.y, c.plot_top(), c.plot_bottom())) << context << ": point y";
  }
  for (const auto& r : s.ridges) {
    EXPECT_TRUE(finite_inside(r.x, c.plot_left(), c.plot_right())) << context << ": ridge x";
    EXPECT_TRUE(finite_inside(r.y, c.plot_top(), c.plot_bottom())) << context << ": ridge y";
  }
  EXPECT_TRUE(std::isfinite(s.x.lo) && std::isfinite(s.x.hi) && s.x.lo > 0 && s.x.lo < s.x.hi)
      << context;
  EXPECT_TRUE(std::isfinite(s.y.lo) && std::isfinite(s.y.hi) && s.y.lo > 0 && s.y.lo < s.y.hi)
      << context;
  EXPECT_LE(s.x.ticks.size(), 15u) << context;
  EXPECT_LE(s.y.ticks.size(), 15u) << context;
  for (const auto& l : s.labels) {
    EXPECT_TRUE(std::isfinite(l.x) && std::isfinite(l.y) && std::isfinite(l.angle)) << context;
    // Its four corners inside the plot.
    const double a = l.angle * std::numbers::pi / 180;
    for (double u : {0.0, l.width})
      for (double v : {-0.95 * c.label_px, 0.3 * c.label_px}) {
        const double px = l.x + u * std::cos(a) - v * std::sin(a);
        const double py = l.y + u * std::sin(a) + v * std::cos(a);
        EXPECT_TRUE(finite_inside(px, c.plot_left(), c.plot_right()) &&
                    finite_inside(py, c.plot_top(), c.plot_bottom()))
            << context << ": label '" << l.text << "' leaves the plot";
      }
  }
  for (std::size_t i = 0; i < s.labels.size(); ++i)
    for (std::size_t j = i + 1; j < s.labels.size(); ++j)
      EXPECT_FALSE(labels_overlap(s.labels[i], s.labels[j], c.label_px))
          << context << ": '" << s.labels[i].text << "' overlaps '" << s.labels[j].text << "'";
  // No label covers a point's marker (a square of canvas.marker_px either side), sampled
  // every half pixel.
  for (const auto& l : s.labels)
    for (const auto& p : s.points) {
      bool covered = false;
      for (double dx = -c.marker_px; dx <= c.marker_px && !covered; dx += 0.5)
        for (double dy = -c.marker_px; dy <= c.marker_px && !covered; dy += 0.5)
          covered = in_label(l, c.label_px, p.x + dx, p.y + dy, 0.25);
      EXPECT_FALSE(covered) << context << ": '" << l.text << "' covers the point of placement "
                            << p.placement << " at (" << p.x << ", " << p.y << ")";
    }
  EXPECT_EQ(s.labels.size() + s.key.size(), s.lines.size())
      << context << ": every roof is labelled on the plot or in the key";
}

}  // namespace ridgeline::scene_checks
