#pragma once
// Fusion in the analysis model (docs/fusion-analysis.md): each fused case beside its
// unfused twin, and the eltwise chain's sweep over its length L. Built once from the Run
// and its placements; every printer (HTML, Markdown, CSV, terminal, the dashboard) reads it.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/analysis/unfused_passes.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

inline constexpr std::size_t kNoPlacement = std::numeric_limits<std::size_t>::max();

// A case's place in a fused/unfused pair, from its recorded role and family
// (core/vocabulary.hpp); nullopt for a case of any other role.
struct FusionRole {
  std::string family;  // "cpu", "cpu.avx2"
  bool fused = false;
};
std::optional<FusionRole> fusion_role(const CaseDetails& details);

// Bytes per call with where the number came from; value 0: none.
struct FusionBytes {
  double value = 0;
  MetricSource source = MetricSource::analytic;
};

// One side of a pair: a case and what it moved.
struct FusionSide {
  std::size_t placement = kNoPlacement;  // index into the placements
  std::string name, backend;
  double seconds = 0;    // per call (the placement's median repetition); 0: not placeable
  double achieved = 0;   // FLOP/s
  FusionBytes analytic;  // the op's model: op_work for the fused side, op_unfused_work else
  FusionBytes counted;   // DRAM (HBM) bytes per call from a collector; 0 where none counted
  // Fraction of the memory roof reached: the placement's efficiency where a memory level
  // binds it; 0 where compute or call overhead binds it or there are no ceilings.
  double memory_roof = 0;
  std::string roof_level;  // the binding memory level
  // Energy per call (the pair's energy_domain), summed over the timed repetitions and
  // divided by their iterations; 0 where not measured.
  double joules = 0;
};

struct FusionPair {
  std::string op, params, dtype, pattern;
  Device device = Device::cpu;
  std::string family;
  int threads = 1;
  FusionSide unfused, fused;
  double byte_ratio = 0;          // unfused / fused bytes, analytic; 0: not usable
  double counted_byte_ratio = 0;  // the same from counted bytes; 0: not both counted
  double speedup = 0;             // unfused / fused time; 0: a side is not placeable
  // speedup / byte ratio (the counted one where both sides were counted): 1 when the
  // time saved is the traffic saved; 0 without both.
  double time_over_bytes = 0;
  // The fused FLOP/s over the FLOP/s of the unfused chain's compute-bound passes (the
  // GEMMs of attention, at the same k): 1 when fusing costs the matmuls nothing; 0 where
  // the chain has no timed compute-bound pass.
  double fused_over_chain_compute = 0;
  // Unfused over fused energy per call, read from `energy_domain` ("gpu": NVML; "package-0":
  // RAPL) on both sides; 0 where a side read none.
  double energy_ratio = 0;
  std::string energy_domain;
  std::string level;  // the level both points are drawn at (the roofline arrow's)
  std::vector<std::string> notes;
};

// A fused or unfused case without its twin: shown with the reason, never dropped.
struct FusionUnpaired {
  std::size_t placement = kNoPlacement;
  std::string name, backend, op, params, dtype, pattern;
  Device device = Device::cpu;
  int threads = 1;
  bool fused = false;
  std::string reason;
};

struct EltwiseSweepPoint {
  std::int64_t length = 0;  // L
  std::size_t placement = kNoPlacement;
  double seconds = 0, achieved = 0, intensity = 0;  // per call, FLOP/s, FLOP/B
};

// One backend's eltwise_chain cases over L, with the rest of the problem fixed.
struct EltwiseSweep {
  std::string backend, dtype, pattern;
  Device device = Device::cpu;
  std::string params;  // the params without L ("n=33554432")
  int threads = 1;
  bool fused = false;                     // its kernel's role is fused
  std::string level;                      // the memory level of the points' intensity
  std::vector<EltwiseSweepPoint> points;  // by L, two or more
  double ridge_intensity = 0;             // the machine's ridge at `level`; 0: no ceilings
  // L where the series' intensity reaches the ridge (between two L run, or beyond the
  // longest from its last two points): where fusing more ops stops paying. 0: none.
  double ridge_length = 0;
  bool ridge_extrapolated = false;
  std::string ridge_note;  // how it was found, or why there is none
};

struct FusionAnalysis {
  std::vector<FusionPair> pairs;             // in run order of the fused case
  std::vector<FusionUnpaired> unpaired;      // in run order
  std::vector<EltwiseSweep> eltwise_sweeps;  // in run order of their first case
  std::vector<UnfusedChain> chains;          // each unfused case's passes, in run order
  bool empty() const {
    return pairs.empty() && unpaired.empty() && eltwise_sweeps.empty() && chains.empty();
  }
};

// Pairs every fused case of `run` with its unfused twin: same op, params, dtype, pattern,
// threads, device and backend family. `placements` are place_results(run, machine).
FusionAnalysis fusion_analysis(const Run& run, const std::vector<RooflinePlacement>& placements,
                               const MachineModel* machine);

// The eltwise chain's series over L (part of fusion_analysis).
std::vector<EltwiseSweep> eltwise_sweeps(const Run& run,
                                         const std::vector<RooflinePlacement>& placements,
                                         const MachineModel* machine);

}  // namespace ridgeline
