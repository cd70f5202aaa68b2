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
  for (const CaseResult* r : in.rows) {
    if (!r->ridgeline) continue;
    const auto task = metric(*r, "perf.task-clock"), wall = metric(*r, "wall_time");
    if (task && wall && *wall > 0) {
      counted = true;
      worst_share = std::min(worst_share, *task / 1e9 / *wall);
    }
    switches += metric(*r, "perf.context-switches").value_or(0);
    migrations += metric(*r, "perf.cpu-migrations").value_or(0);
  }
  // A GPU case's thread waits on the device and may sleep: its CPU time says nothing.
  if (in.device == "cpu" && counted && worst_share < kNoisyCpuShare)
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

void attach_timing_noise(const Run& run, std::vector<RooflinePlacement>& placements) {
  std::map<std::string, std::vector<const CaseResult*>> timed_rows;  // by run name
  for (const auto& r : run.benchmarks)
    if (r.run_type == "iteration" && r.ridgeline && !r.error_occurred && !r.skipped)
      timed_rows[r.run_name.empty() ? r.name : r.run_name].push_back(&r);
  for (auto& p : placements) {
    const auto rows = timed_rows.find(p.name);
    TimingNoise noise = timing_noise(
        {&p.repetitions, rows == timed_rows.end() ? std::vector<const CaseResult*>{} : rows->second,
         p.device, p.throttled});
    p.cpu_share = noise.cpu_share;
    for (auto& why : noise.reasons) {
      p.noisy = true;
      p.notes.push_back({NoteKind::noise, std::move(why)});
    }
  }
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
  if (l.others_cpu_s > kBusyOthers * capacity)
    add(
        fmt::format("other processes used {:.0f}% of the {} CPUs while the run was timed "
                    "({:.1f} CPU-seconds in {:.1f} s, /proc/stat)",
                    100 * l.others_cpu_s / capacity, l.cpus, l.others_cpu_s, l.wall_s));
  if (l.steal_s > kBusySteal * capacity)
    add(fmt::format("the hypervisor took {:.0f}% of the CPUs' time (steal, /proc/stat)",
                    100 * l.steal_s / capacity));
  return out;
}

}  // namespace ridgeline
