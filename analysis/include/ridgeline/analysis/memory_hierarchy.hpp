#pragma once
// The memory hierarchy of one thread count from repeated read and copy sweeps, anchored on
// what the OS reports (docs/roofline.md, "How the levels are found"). The OS's count of cache
// levels is trusted; each of its sizes is kept unless the sweeps contradict it on strong,
// repeated evidence, and a slope or a step the OS does not report becomes a level only when
// every kernel and every pass shows it. Noise is measured (the spread of the passes at each
// point) and decides how small a step the sweeps may claim.
#include <cstdint>
#include <string>
#include <vector>

#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

// One kernel's sweeps at one thread count: each pass measured the same working sets (all
// streams of all threads together, as likwid-bench counts them), the passes interleaved with
// the other kernels' so that a quiet or busy moment of the host falls on one pass only.
struct KernelSweeps {
  std::string kernel;                           // "read", "copy"
  std::vector<std::vector<SweepPoint>> passes;  // at least one
};

// A cache level as the OS reports it for these threads (private levels x threads, shared as is).
struct ReportedCache {
  std::string name;  // "L1", "L2", "L3"
  std::int64_t bytes = 0;
};

struct HierarchyOptions {
  double match_factor = 2.0;  // a step within this factor of the OS's size confirms it
  double min_drop = 0.08;     // a step down by less than this (relative) is never a level's end
  double z = 3.0;             // and it must be this many standard errors of the noise
  int min_level_points = 4;   // a replaced size needs a plateau of this many points before it
  int min_extra_points = 6;   // a level the OS does not report, this many on both sides
  double min_noise = 0.02;    // relative noise assumed at least
};

// One level: where each kernel's sweep shows it, and what size the hierarchy uses.
struct HierarchyLevel {
  std::string name;  // "L1".."L<n>", "DRAM"; "L<k>-L<k+1>" or "L<n>-DRAM" for an extra level
  CacheSizeDecision decision = CacheSizeDecision::confirmed;
  std::int64_t reported_bytes = 0;  // the OS's size for these threads; 0 for none
  std::int64_t measured_bytes = 0;  // where the read sweep steps down after it; 0 if no step
  std::int64_t used_bytes = 0;      // what placement and blocking use: the OS's unless replaced
  std::string why;                  // the evidence, in a sentence a user can check
  struct Span {
    std::string kernel;
    std::int64_t first_bytes = 0, last_bytes = 0;  // its points' working sets
    double bytes_per_s = 0;                        // their median
    int points = 0;
    std::int64_t capacity_bytes = 0;  // the middle of the step down after it; 0 if none
  };
  std::vector<Span> spans;  // one per kernel that shows the level at all
};

struct KernelNoise {
  std::string kernel;
  int passes = 0;
  double relative = 0;      // per-point standard deviation of log rate
  bool from_passes = true;  // false: one pass, estimated from neighbouring points
};

struct Hierarchy {
  std::vector<HierarchyLevel> levels;  // smallest first, DRAM last
  std::vector<KernelNoise> noise;
};

// The hierarchy of `sweeps` (the first kernel places the levels; "read" by convention) with
// the OS's caches `os` (smallest first; sizes of 0 are not reported). Throws
// std::invalid_argument for no sweeps, an empty pass, or passes of different working sets.
Hierarchy detect_hierarchy(const std::vector<KernelSweeps>& sweeps,
                           const std::vector<ReportedCache>& os,
                           const HierarchyOptions& options = {});

}  // namespace ridgeline
