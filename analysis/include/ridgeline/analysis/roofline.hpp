#pragma once
// Places results on the (hierarchical) roofline of a machine. Reads documents only:
// this module never links kernels or collectors.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/note.hpp"
#include "ridgeline/analysis/repetitions.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// The ceilings that bound one kind of result: a dtype at a thread count. Only ceilings
// with usable values (finite, positive, normal) are taken; the others are noted.
struct Roof {
  std::optional<ComputeCeiling> compute;        // best measured peak for the dtype
  std::map<std::string, MemoryCeiling> memory;  // level -> best measured bandwidth
  std::optional<OverheadCeiling> overhead;
  int threads = 1;          // thread count of the ceilings used
  std::vector<Note> notes;  // where they do not match the result exactly, ceilings left out
};

// `dtype` "f64"/"f32"/...; "" means unknown (the highest floating-point peak is used).
// `device`: whose ceilings are used. `unit`: only that unit's compute ceilings (a kernel on
// the vector units is placed under theirs, one on AMX under the tiles'); none: the fastest
// unit's. A 16-bit float's roof is also the f32 ceilings of the same unit, where faster:
// bf16 and f16 widen to f32 exactly, so their work can run at the f32 FMA rate.
Roof roof_for(const MachineModel& machine, const std::string& dtype, int threads,
              Device device = Device::cpu, std::optional<ComputeUnit> unit = std::nullopt);

// attainable(I) = min(peak, min over levels of bandwidth[level] * I[level]); the level or
// compute ceiling that gives the minimum is the bound.
struct Attainable {
  double flops_per_s = 0;
  Bound bound = Bound::compute();  // compute, or a memory level
  // The memory level whose roof is lowest at the point's intensities (the one that binds
  // first as intensity falls), even when compute bounds the point; "" without one.
  std::string memory_level;
};
Attainable attainable(const Roof& roof, const std::map<std::string, double>& intensity);

// Intensity where a level's bandwidth line meets the compute peak (FLOP/B); 0 where
// there is none (no peak, no such level, or a ratio that is not a usable number).
double ridge_point(const Roof& roof, const std::string& level);

struct RooflinePlacement {
  std::string name;  // run_name of the case
  std::string backend, dtype, op;
  Device device = Device::cpu;
  KernelRole role = KernelRole::ladder;  // foreign results: ladder
  std::string family;                    // core/vocabulary.hpp
  bool throttled = false;  // a GPU whose clocks were held down (NVML) during the timing
  std::string params;      // the op's params label, "m=..,n=..,k=../layout=NN", or empty
  std::string pattern;     // the timed inputs' pattern; empty for foreign results
  std::string fp_env;      // "ieee" or "ftz_daz"; empty for foreign results
  CacheState cache = CacheState::warm;  // cold: operands flushed (CPU) or rotated (GPU)
  int threads = 1;
  bool placeable = false;
  std::string reason;  // why not placeable
  double flops = 0;    // per call
  double seconds = 0;  // per call (median repetition where there are several)
  // Every timed repetition of the case (its iteration rows without an error), per call;
  // empty for a file of aggregates only.
  RepetitionSamples repetitions;
  bool noisy = false;  // its timing was disturbed: the reasons are notes of kind `noise`
  // The calling thread's time on a CPU over the wall time in its worst repetition (perf
  // task-clock); 0 where not counted (noise.hpp).
  double cpu_share = 0;
  double achieved = 0;  // FLOP/s
  MetricSource flops_source = MetricSource::analytic;
  MetricSource bytes_source = MetricSource::analytic;
  std::map<std::string, double> bytes;      // level -> bytes per call
  std::map<std::string, double> intensity;  // level -> FLOP/B
  // The level the point is drawn and tabled at: with ceilings, the memory level whose roof
  // is lowest at its intensities (Attainable::memory_level); without, the farthest level
  // measured (L1 < L2 < L3 < DRAM < HBM). Its intensity is level_intensity.
  std::string level;
  double level_intensity = 0;
  double attainable = 0;    // FLOP/s; 0 without ceilings
  Bound bound;              // compute, a level, the call overhead, or none
  double efficiency = 0;    // achieved / attainable
  bool above_roof = false;  // achieved > attainable (by more than 2%)
  // The unit its arithmetic ran on, whose roof places it; none for foreign results (they go
  // under the fastest unit's).
  std::optional<ComputeUnit> compute_unit;
  // Where another unit of the machine has a higher roof for the dtype than the point's own:
  // that ceiling (the machine's highest for the dtype at these threads), and the fastest case
  // of the run on it with the same op, params and threads, if any ("" and 0 otherwise).
  std::optional<ComputeCeiling> faster_unit;
  std::string faster_case_backend;
  double faster_case_rate = 0;  // FLOP/s
  // FLOPs per joule over the timed calls where an energy collector read them (derived:
  // FLOPs over the energy counter's joules), and whose energy: "gpu" (NVML), "package-0"
  // (RAPL); 0 and "" where none was read.
  double flop_per_joule = 0;
  std::string energy_domain;
  // Ridgeline's validation of the case; foreign results: not_verified, error or skipped.
  Disposition disposition = Disposition::passed;
  bool foreign = false;         // from a foreign Google Benchmark file: never validated here
  bool complexity_fit = false;  // a Complexity() fit's BigO or RMS row: a summary, no case
  std::vector<Note> notes;      // how it was placed: level, rate, dtype, threads, ceilings, origin
  // One line read off the position: where the point is and what would move it
  // (placement_guidance); every format and the dashboard show it.
  std::string guidance;
};

// "memory-bound at DRAM at 83% of the roof: raise intensity by fusion or reuse", from the
// placement's bound, level and efficiency; why it is not on the roofline where it is not.
std::string placement_guidance(const RooflinePlacement& placement);

// One placement per case of the run (the median aggregate when there are repetitions).
// Without a machine model, points get intensity and achieved rate but no bound. Every
// number of a placeable result (flops, seconds, bytes, intensity, achieved, attainable,
// efficiency) is finite and positive; a result whose numbers are not is not placeable,
// with the field and the value in its reason.
std::vector<RooflinePlacement> place_results(const Run& run, const MachineModel* machine);

}  // namespace ridgeline
