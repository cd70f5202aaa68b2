#pragma once
// Whether a case's timed repetitions were disturbed, from what the run recorded with them:
// their spread, how much of the timed wall time the calling thread was on a CPU (perf's
// task-clock), migrations between CPUs, and a GPU's throttling. Each reason becomes a note
// of kind `noise` on the placement, which is then `noisy` (docs/compare.md).
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/repetitions.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/case_result.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// A coefficient of variation above this is noisy.
inline constexpr double kNoisyCv = 0.05;
// The calling thread on a CPU for less than this share of a repetition's wall time: it was
// descheduled (another process had the CPU). Counted threads are only those perf saw, so
// the calling thread alone is held to it, never the team: a lower bound of the truth.
inline constexpr double kNoisyCpuShare = 0.9;

// What perf counted around one timed repetition of ours: all timing_noise reads of a row,
// kept instead of the row when a run is read row by row (RunCases).
struct RepetitionCounters {
  std::optional<double> task_clock_ns, wall_s;  // perf.task-clock, wall_time
  double context_switches = 0, migrations = 0;  // perf.context-switches, perf.cpu-migrations
  // FLOPs per joule of the device's own energy counter (flop_per_joule.gpu on a GPU,
  // .package-0 on a CPU) where one read the repetition, and NVML's gpu.throttled.
  std::optional<double> flop_per_joule;
  bool throttled = false;
};
// From a row with Ridgeline's block.
RepetitionCounters repetition_counters(const CaseResult& row);

struct TimingInputs {
  const RepetitionSamples* samples = nullptr;
  std::vector<RepetitionCounters> rows;  // the case's timed iteration rows
  Device device = Device::cpu;
  bool throttled = false;
};

struct TimingNoise {
  std::vector<std::string> reasons;  // in words; empty where nothing says it was disturbed
  double cpu_share = 0;  // the worst repetition's task-clock over wall time; 0: not counted
};
TimingNoise timing_noise(const TimingInputs& in);

// The whole run: other processes used more than this share of all CPUs while it was timed,
// or the hypervisor took more than kBusySteal of them (MachineLoad, from /proc/stat), or
// the clock moved by more than kClockDrift between its start and end.
inline constexpr double kBusyOthers = 0.10;
inline constexpr double kBusySteal = 0.05;
// The clock at the run's end this far from its start: the machine's state changed under it.
inline constexpr double kClockDrift = 0.05;
// In words, or empty where the run was quiet or its load was not recorded.
std::string machine_load_warning(const RunContext& context);

}  // namespace ridgeline
