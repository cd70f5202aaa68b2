#pragma once
// Draws the memory sweep scene (analysis/sweep_scene.hpp) with QPainter: the same lines,
// level bands and hwloc markers the HTML report's machine section draws, in its colours.
#include <QImage>
#include <QPainter>

#include "ridgeline/analysis/sweep_scene.hpp"

namespace ridgeline::gui {

// Paints `scene` in its canvas's pixel space (the painter's transform maps it).
void paint_sweep(QPainter& painter, const SweepScene& scene);
QImage sweep_image(const SweepScene& scene);

}  // namespace ridgeline::gui
