#pragma once
// The probe's parts beside probe.cpp: the phase times, and the memory part (sweeps, the
// levels in them, each level's ceilings).
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

// Closes each phase of the probe into m.phases with the wall time since the previous one,
// and returns that time.
class PhaseTimer {
 public:
  explicit PhaseTimer(MachineModel& m) : m_(m), last_(std::chrono::steady_clock::now()) {}
  double done(std::string name) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    m_.phases.push_back({std::move(name), seconds});
    last_ = now;
    return seconds;
  }

 private:
  MachineModel& m_;
  std::chrono::steady_clock::time_point last_;
};

// Where each level's ceilings are measured: the middle of its plateau in this thread count's
// read sweep, and main memory at no less than 4x the largest cache's end (within the sweep's
// budget and the plateau the sweep found). A level the sweep did not show gets none
// (`progress` says so).
std::vector<std::pair<std::string, std::int64_t>> working_sets(const MachineModel& m, int threads,
                                                               const ProbeProgress& progress);

// For each thread count: the read and copy sweeps at the widest of `widths` (when any memory
// ceiling is wanted), the levels in them beside hwloc's `caches`, and every wanted level's
// read/write/copy/triad ceiling at the middle of its plateau, into m.
void probe_memory(MachineModel& m, const std::vector<int>& thread_counts,
                  const std::vector<StreamIsa>& widths, const CacheSizes& caches,
                  const std::function<bool(const std::string&)>& wanted, const ProbeOptions& opt,
                  PhaseTimer& phases, const ProbeProgress& progress);

}  // namespace ridgeline
