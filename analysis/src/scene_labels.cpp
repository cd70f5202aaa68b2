#include "scene_labels.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ridgeline/analysis/scene_geometry.hpp"

namespace ridgeline::scene {

namespace {

constexpr double kGap = 2.5;   // between a label's box and its line
constexpr double kPad = 1;     // around every label box
constexpr double kStep = 6;    // between candidate places along a line
constexpr double kEndGap = 6;  // between a label and the end of its line

// Candidate anchors and the angle for a label of `width` on `line`, preferred first.
std::vector<std::pair<Point, double>> candidates(const SceneLine& line, double width,
                                                 double font_px) {
  std::vector<std::pair<Point, double>> out;
  const double dx = line.x1 - line.x0, dy = line.y1 - line.y0;
  const double len = std::hypot(dx, dy);
  if (!(len > 1) || len - width - kEndGap < 2) return out;
  const double ux = dx / len, uy = dy / len;
  const double angle = std::atan2(dy, dx);
  const double s = std::sin(angle), c = std::cos(angle);
  // Local "down" of the text, on the screen.
  const Point down{-s, c};
  for (double offset : {-(kGap + text_descent(font_px)), kGap + text_ascent(font_px)})
    for (double along = len - width - kEndGap; along >= 2; along -= kStep) {
      const Point base{line.x0 + ux * along, line.y0 + uy * along};
      out.push_back(
          {{base.x + down.x * offset, base.y + down.y * offset}, angle * 180 / std::numbers::pi});
    }
  return out;
}

}  // namespace

void place_labels(RooflineScene& scene, const std::vector<LabelRequest>& requests) {
  const SceneCanvas& cv = scene.canvas;
  const double font = cv.label_px;
  std::vector<Quad> lines;
  for (const auto& l : scene.lines) lines.push_back(segment_box({l.x0, l.y0}, {l.x1, l.y1}, 1));
  // Every point's marker is taken before the first label is placed.
  std::vector<Quad> placed;
  const double r = cv.marker_px;
  for (const auto& p : scene.points)
    placed.push_back(
        {{{{p.x - r, p.y - r}, {p.x + r, p.y - r}, {p.x + r, p.y + r}, {p.x - r, p.y + r}}}});
  for (const auto& req : requests) {
    if (req.line >= scene.lines.size()) continue;
    const SceneLine& line = scene.lines[req.line];
    const double width = text_width(req.text, font);
    // The free place (inside the plot, clear of every label placed) that crosses the
    // fewest roof lines; the first such in order of preference.
    std::size_t best_crossings = lines.size() + 1;
    std::pair<Point, double> best{};
    for (const auto& [anchor, angle] : candidates(line, width, font)) {
      const Quad box = text_box(anchor, angle, width, font, kPad);
      if (!inside(box, cv.plot_left() + 1, cv.plot_top() + 1, cv.plot_right() - 1,
                  cv.plot_bottom() - 1))
        continue;
      if (std::any_of(placed.begin(), placed.end(), [&](const Quad& q) { return overlap(box, q); }))
        continue;
      const auto crossings = static_cast<std::size_t>(std::count_if(
          lines.begin(), lines.end(), [&](const Quad& q) { return overlap(box, q); }));
      if (crossings < best_crossings) {
        best_crossings = crossings;
        best = {anchor, angle};
        if (crossings == 0) break;
      }
    }
    if (best_crossings > lines.size()) {
      scene.key.push_back(req.text);
      continue;
    }
    placed.push_back(text_box(best.first, best.second, width, font, kPad));
    scene.labels.push_back({req.text, line.kind == SceneLine::Kind::memory ? line.level : "",
                            best.first.x, best.first.y, best.second, width});
  }
}

}  // namespace ridgeline::scene
