#pragma once
// The memory sweep picture (bandwidth against working set, log2 x, log10 y) computed once
// and drawn by the HTML report's SVG writer and the dashboard's Machine tab: one line per
// sweep of the machine model, each measured level as a band over its plateau, hwloc's cache
// sizes as vertical markers (flagged where the probe's sweeps replaced them). It draws
// what the probe recorded; nothing is re-detected. Every coordinate is inside the canvas.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

struct SweepScene {
  double width = 720, height = 380;                       // the canvas, pixels
  double left = 70, right = 535, top = 20, bottom = 330;  // the plot; the legend right of it
  struct Tick {
    double pixel = 0;
    std::string text;  // "64 KiB"; "100 GB/s"
  };
  std::vector<Tick> x_ticks, y_ticks;
  struct Marker {  // hwloc's size of a cache
    std::string name;
    double x = 0;
    bool off = false;  // a 1-thread measured level disagrees with it by more than 2x
    std::string text;  // "hwloc L3 508 MiB (replaced)"
  };
  std::vector<Marker> hwloc;
  struct Band {  // a measured level over its plateau
    std::string name, kernel;
    int threads = 1;
    double x0 = 0, x1 = 0, y = 0;
    std::string tip;     // "L2 (read 1 thread): 64 KiB to 1 MiB, 230.1 GB/s"
    bool label = false;  // its name is written above it (1-thread read levels)
  };
  std::vector<Band> bands;
  struct Line {  // one sweep
    std::string kernel, isa;
    int threads = 1;
    std::vector<SceneXY> points;
    std::string legend;  // "read 1 thread (avx512)"
    double legend_y = 0;
  };
  std::vector<Line> sweeps;
  struct Mark {  // a kernel's own bandwidth point (a transpose) beside the sweeps
    std::string label, group;
    double x = 0, y = 0;
    std::string tip;
    bool labelled = false;  // its label is written beside it (it overlaps no earlier one)
  };
  std::vector<Mark> marks;
  struct Group {  // each marks' group once, in the legend under the sweeps'
    std::string name;
    double legend_y = 0;
  };
  std::vector<Group> mark_groups;
  std::string x_title = "working set (all arrays of all threads)";
};

// A memory-bound step measured on its own, to set beside the sweeps at its working set
// (einsum's permutes: no FLOPs, so no place on a FLOP/s roofline).
struct BandwidthMark {
  std::string label;  // "permute_A"
  std::string group;  // whose: "cpu.ttgt" (a printer's colour)
  double working_set_bytes = 0, bytes_per_s = 0;
  std::string tip;  // "… 4.19 MB at 9.64 GB/s, 15% of its L3 roof"
};

// The scene of `machine`'s sweeps, its axes widened to hold each of `marks` that a probe
// could have measured (others are left out); nullopt where there is nothing to draw.
std::optional<SweepScene> sweep_scene(const MachineModel& machine,
                                      const std::vector<BandwidthMark>& marks = {});

}  // namespace ridgeline
