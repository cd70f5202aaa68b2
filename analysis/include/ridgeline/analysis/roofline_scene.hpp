#pragma once
// The roofline picture, computed once and drawn by every backend (the SVG writer, a Qt
// view): axis ranges and ticks, roofs, ridge points, point positions and roof labels
// placed so that no two overlap, in the pixel space of a canvas. Every number in it is
// finite and inside the canvas; whatever could not be drawn is listed in `omitted` with
// the reason, and a roof label that found no free place is listed in `key`.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/power_cap.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/analysis/run_comparison.hpp"

namespace ridgeline {

// A window onto the data: log10 of the x range (FLOP/B) and of the y range (FLOP/s). The
// dashboard's zoom and pan set one; without it the scene fits whole decades to the data.
struct SceneWindow {
  double x_lo = -1, x_hi = 2, y_lo = 9, y_hi = 11;
  bool operator==(const SceneWindow&) const = default;
};

struct SceneCanvas {
  double width = 960, height = 600;
  double left = 80, right = 40, top = 24, bottom = 56;  // margins around the plot
  double label_px = 11;                                 // font size of the roof labels
  // Half the extent of a point's marker and its stroke (the SVG's and the dashboard's reach
  // 6.5 px): no label comes nearer.
  double marker_px = 7;
  std::optional<SceneWindow> window;  // the data shown; none: fit the data
  double plot_left() const { return left; }
  double plot_right() const { return width - right; }
  double plot_top() const { return top; }
  double plot_bottom() const { return height - bottom; }
};

struct SceneTick {
  double value = 0;  // FLOP/B on x, FLOP/s on y
  double pixel = 0;  // x on the x axis, y on the y axis
  std::string text;  // "0.01", "100" (FLOP/B); "1", "1000" (GFLOP/s)
};

struct SceneAxis {
  double lo = 0.1, hi = 100;  // lo < hi; powers of ten unless the canvas has a window
  std::vector<SceneTick> ticks;
};

struct SceneLine {
  enum class Kind { memory, compute };
  Kind kind = Kind::memory;
  std::string level;  // memory: its level ("L1", "DRAM", "HBM"); compute: the dtype
  Device device = Device::cpu;
  int threads = 1;
  double value = 0;                       // B/s or FLOP/s
  std::string ceiling;                    // the ceiling's name (compute) or kernel (memory)
  bool dashed = false;                    // more than one thread, or a GPU
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // pixels, inside the plot
  std::size_t machine = 0;                // an overlay's: the index of the machine whose roof it is
  // A compute roof at the GPU's power cap on one input pattern (power_cap.hpp), below the
  // nominal one; `ceiling` names the pattern.
  bool power_cap = false;
};

struct SceneRidge {
  double x = 0, y = 0;  // pixels
  double intensity = 0;
  std::string dtype, level;
  Device device = Device::cpu;
  int threads = 1;
};

struct SceneLabel {
  std::string text;
  std::string level;    // memory level of its roof, "" for a compute roof
  double x = 0, y = 0;  // start of the baseline, pixels
  double angle = 0;     // degrees, clockwise about (x, y)
  double width = 0;     // estimated extent the placement reserved
};

struct ScenePoint {
  std::size_t placement = 0;  // index into the placements the scene was made from
  std::string level;
  double intensity = 0;
  double x = 0, y = 0;  // pixels
};

struct SceneXY {
  double x = 0, y = 0;  // pixels
};

// An arrow from a fusion pair's unfused point to its fused point (analysis/fusion.hpp), or
// from a compared case's base point to its new point (run_comparison.hpp): the shaft from
// the first marker's edge to the head's base, the head a triangle whose tip touches the
// second marker.
struct SceneArrow {
  enum class Kind { fusion, comparison };
  Kind kind = Kind::fusion;
  std::size_t pair = 0;  // index into the fusion pairs, or into the comparison's cases
  SceneXY from, to;
  std::array<SceneXY, 3> head;  // tip, then the two barbs
};

// One einsum contraction's lowerings joined (the same equation, extents, dtype, threads,
// pattern): a line from its fastest lowering's point to each other lowering's. They share
// the FLOPs, so a lowering that adds bytes (TTGT's transposes) lies to the left of the
// copy-free ones, and each lies as high as its rate.
struct SceneJoin {
  std::string what;  // "einsum equation=... f32, 2 threads"
  SceneXY best;      // the fastest lowering's point (the highest)
  std::vector<SceneXY> others;
};

struct SceneOmission {
  std::string what;     // a result's name, a roof, a ceiling
  std::string reason;   // why it is not on the plot
  bool result = false;  // a placed result (`what` is its name), not a roof
};

struct RooflineScene {
  SceneCanvas canvas;
  SceneAxis x, y;
  std::vector<SceneLine> lines;
  std::vector<SceneRidge> ridges;
  std::vector<SceneLabel> labels;  // on the plot; no two overlap, none covers a point
  std::vector<std::string> key;    // roof labels that did not fit on the plot
  std::vector<ScenePoint> points;
  std::vector<SceneArrow> arrows;  // fusion pairs or compared cases with both points on it
  std::vector<SceneJoin> joins;    // each einsum contraction with two or more lowerings on it
  std::vector<SceneOmission> omitted;
  std::vector<std::string> caption;  // what the points are, true for each kind shown
};

// The scene of `placements` under `machine`'s ceilings (none: points only), with an arrow
// for each of the `fusion` pairs (made from the same placements) whose two points it shows,
// and a line joining each einsum contraction's lowerings;
// a pair without one is in `omitted` with the reason. Each of the `power_caps` below its
// dtype's GPU roof is drawn beside it where a placed GPU case has its dtype and pattern.
RooflineScene roofline_scene(const std::vector<RooflinePlacement>& placements,
                             const MachineModel* machine, const SceneCanvas& canvas = {},
                             const std::vector<FusionPair>& fusion = {},
                             const std::vector<PowerCapRoof>& power_caps = {});

// Two runs on one roofline (`ridgeline report BASE NEW`): `placements` are the base run's
// (the first `base_count`) then the new run's, under `machine`'s ceilings, with an arrow
// from each compared case's base point to its new point (`cases` from compare_runs). Cases
// whose points are too close for an arrow are counted in the caption, not listed. With
// `base_machine` (runs from two machines), the base run's points are under its own roofs,
// drawn as an overlay's second machine (their lines' machine 1, labels named by host).
RooflineScene comparison_scene(const std::vector<RooflinePlacement>& placements,
                               std::size_t base_count, const std::vector<CaseComparison>& cases,
                               const MachineModel* machine, const SceneCanvas& canvas = {},
                               const MachineModel* base_machine = nullptr);

// One machine of an overlay: its model (none: its runs have no roofs) and the name its
// roofs' labels carry ("zen5-vm").
struct SceneMachine {
  const MachineModel* machine = nullptr;
  std::string name;
};

// The names the roofs of several machine models carry: each model's host; two models of one
// host apart by their probe's day (by the whole date where the day is the same too);
// "(unnamed)" for a host left empty. A null model's name is "".
std::vector<std::string> machine_names(const std::vector<const MachineModel*>& models);

// Several runs on one roofline (the dashboard's overlay): `machine_of[i]` is the index in
// `machines` of the model placement i was placed under. Each machine's roofs are drawn for
// its own placements; with more than one machine every roof's label starts with its
// machine's name and its line carries the machine's index.
RooflineScene overlay_scene(const std::vector<RooflinePlacement>& placements,
                            const std::vector<std::size_t>& machine_of,
                            const std::vector<SceneMachine>& machines,
                            const SceneCanvas& canvas = {});

}  // namespace ridgeline
