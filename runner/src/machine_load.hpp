#pragma once
// The CPU time the whole machine and this process have used so far, for a run's
// MachineLoad (core/run.hpp): what others did while it was timed.
#include <optional>
#include <string_view>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct CpuTimes {
  double busy_s = 0;   // all CPUs: user + nice + system + irq + softirq (guest is in user)
  double steal_s = 0;  // all CPUs: taken by the hypervisor
  double self_s = 0;   // this process and its reaped children: utime + stime + cutime + cstime
  int cpus = 0;        // "cpuN" lines
};

// From the text of /proc/stat and /proc/self/stat, `ticks` per second; nullopt where either
// is not in the kernel's format.
std::optional<CpuTimes> parse_cpu_times(std::string_view proc_stat, std::string_view self_stat,
                                        double ticks);
// This machine's, now.
std::optional<CpuTimes> read_cpu_times();

// Between two readings `wall_s` apart.
MachineLoad machine_load_between(const CpuTimes& start, const CpuTimes& end, double wall_s);

}  // namespace ridgeline
