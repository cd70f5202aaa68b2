#pragma once
// An unfused chain pass by pass (docs/fusion-analysis.md): what each pass of an eager chain
// took, moved and reached of its own roof, so that a user sees which pass loses and by how
// much. The times are the kernel's own laps (metrics pass_time.<i>.<name>, timed), the
// FLOPs and bytes the op's pass model (op_unfused_passes, analytic).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// Below this fraction of its roof a pass is named in the report as the one that loses.
inline constexpr double kPassRoofFloor = 0.8;

struct PassPoint {
  std::string name;             // the op's name for the pass: "exp", "scores_gemm"
  double seconds = 0;           // per call: the median over the case's repetitions (timed)
  double flops = 0, bytes = 0;  // per call, the op's pass model (analytic)
  double share = 0;             // of the chain's passes together
  double intensity = 0;         // FLOP/B at the chain's level; 0 for a pass without FLOPs
  double achieved = 0;          // FLOP/s
  double bandwidth = 0;         // B/s
  // The ceiling that binds the pass at its intensity: compute or a memory level; none where
  // the machine model has no ceilings for it.
  Bound bound;
  // Fraction of that ceiling reached: bytes/s over the level's bandwidth where memory
  // binds, FLOP/s over the peak where compute does; 0 without a bound.
  double roof = 0;
  bool below_floor = false;  // roof < kPassRoofFloor
  // A lowering's step, as its kernel declared it (einsum's TTGT: a permute or the GEMM);
  // none for an op's unfused pass.
  std::optional<StepKind> step;
};

struct UnfusedChain {
  std::size_t placement = 0;  // index into the placements
  std::string name, backend, op, params, dtype, pattern;
  Device device = Device::cpu;
  int threads = 1;
  std::string level;  // the level the passes' bytes are read at (the case's placement's)
  std::vector<PassPoint> passes;  // in the order run
  double case_seconds = 0;        // the case's own time per call (its placement)
  double passes_seconds = 0;      // the passes' medians together
  bool placed = false;            // a pass has a bound: the machine model had ceilings for them
  // Fraction of the passes' time in passes bound by a memory level: how much of the chain
  // is traffic. 0 where not placed.
  double memory_bound_share = 0;
  std::vector<std::string> notes;  // each pass below the floor, and what could not be read
};

// One chain per unfused case (fusion_role says unfused) whose results carry pass times, its
// passes' work as the kernel recorded it (or, in older runs, the op's pass model);
// `placements` are place_results(run, machine).
std::vector<UnfusedChain> unfused_chains(const Run& run,
                                         const std::vector<RooflinePlacement>& placements,
                                         const MachineModel* machine);
// The same for the other cases whose kernels lapped their own steps and recorded each one's
// modelled work beside its time (einsum's transpose-GEMM-transpose: its permutes and its
// GEMM), each step placed on the case's roof as an unfused pass is.
std::vector<UnfusedChain> lowering_chains(const Run& run,
                                          const std::vector<RooflinePlacement>& placements,
                                          const MachineModel* machine);

}  // namespace ridgeline
