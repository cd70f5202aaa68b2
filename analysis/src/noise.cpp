#include "ridgeline/analysis/noise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace ridgeline {

namespace {

std::optional<double> metric(const CaseResult& r, const char* name) {
  for (const auto& m : r.ridgeline->metrics)
    if (m.name == name) return m.value;
  return std::nullopt;
}

}  // namespace

RepetitionCounters repetition_counters(const CaseResult& r) {
  const bool gpu = r.ridgeline->device == Device::gpu;
  return {metric(r, "perf.task-clock"),
          metric(r, "wall_time"),
          metric(r, "perf.context-switches").value_or(0),
          metric(r, "perf.cpu-migrations").value_or(0),
          metric(r, gpu ? "flop_per_joule.gpu" : "flop_per_joule.package-0"),
          metric(r, "gpu.throttled").value_or(0) > 0};
}

TimingNoise timing_noise(const TimingInputs& in) {
  TimingNoise noise;
  std::vector<std::string>& out = noise.reasons;
  const RepetitionSamples& s = *in.samples;
  if (s.seconds.size() > 1 && s.cv > kNoisyCv)
    out.push_back(fmt::format("cv {:.1f}% over {} repetitions (above {:g}%)", 100 * s.cv,
                              s.seconds.size(), 100 * kNoisyCv));
  double worst_share = 1;
  double switches = 0, migrations = 0;
  bool counted = false;
  for (const RepetitionCounters& r : in.rows) {
    if (r.task_clock_ns && r.wall_s && *r.wall_s > 0) {
      counted = true;
      worst_share = std::min(worst_share, *r.task_clock_ns / 1e9 / *r.wall_s);
    }
    switches += r.context_switches;
    migrations += r.migrations;
  }
  // A GPU case's thread waits on the device and may sleep: its CPU time says nothing.
  if (in.device == Device::cpu && counted && worst_share < kNoisyCpuShare)
    out.push_back(fmt::format(
        "the calling thread was on a CPU for {:.0f}% of a repetition's wall time (perf "
        "task-clock over wall time; {:g} context switches in all): another process had the CPU",
        100 * worst_share, switches));
  if (migrations > 0)
    out.push_back(
        fmt::format("moved between CPUs {:g} times while timed (perf cpu-migrations)", migrations));
  if (in.throttled) out.push_back("the GPU was throttled while timed (NVML)");
  if (counted) noise.cpu_share = worst_share;
  return noise;
}

std::string machine_load_warning(const RunContext& context) {
  if (!context.machine_load) return "";
  const MachineLoad& l = *context.machine_load;
  const double capacity = l.wall_s * l.cpus;
  std::string out;
  const auto add = [&](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
  if (l.clock_start_hz > 0 && l.clock_end_hz > 0 &&
      std::abs(l.clock_end_hz / l.clock_start_hz - 1) > kClockDrift)
    add(
        fmt::format("the clock moved from {:.2f} to {:.2f} GHz between the run's start and end "
                    "({:+.1f}%)",
                    l.clock_start_hz / 1e9, l.clock_end_hz / 1e9,
                    100 * (l.clock_end_hz / l.clock_start_hz - 1)));
  if (!(capacity > 0)) return out;
  // A merged Run's load is rank 0's view, which counts the job's other ranks on its host:
  // they are the job, not other processes. Their CPUs, taken as busy for the whole run, come
  // off the count.
  int ranks = 0;
  double ranks_cpu_s = 0;
  for (const RankContext& r : context.ranks)
    if (r.rank != 0 && !context.ranks.empty() && r.host == context.ranks.front().host) {
      ++ranks;
      ranks_cpu_s += static_cast<double>(std::max<std::size_t>(1, r.cpus.size())) * l.wall_s;
    }
  const double others = std::max(0.0, l.others_cpu_s - ranks_cpu_s);
  if (others > kBusyOthers * capacity)
    add(
        fmt::format("other processes used {:.0f}% of the {} CPUs while the run was timed "
                    "({:.1f} CPU-seconds in {:.1f} s, /proc/stat{})",
                    100 * others / capacity, l.cpus, others, l.wall_s,
                    ranks ? fmt::format("; beyond the job's {} other rank{} on this host", ranks,
                                        ranks == 1 ? "" : "s")
                          : ""));
  if (l.steal_s > kBusySteal * capacity)
    add(fmt::format("the hypervisor took {:.0f}% of the CPUs' time (steal, /proc/stat)",
                    100 * l.steal_s / capacity));
  return out;
}

}  // namespace ridgeline
