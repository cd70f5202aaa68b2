#pragma once
// Step of execute_case: the function Google Benchmark calls for each repetition (and its
// sizing and warm-up runs). Its iterations are timed one of three ways: on the device's own
// events (a GPU kernel), call by call after flushing every operand from the caches (a CPU
// case with cache=cold: manual time), or back to back (real time). The collectors are
// started and stopped around the iterations and each call's readings are kept, with its
// index in a counter, so each reported repetition carries its own window's readings.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// The counter that ties a reported run to the collector window of the call that made it.
inline constexpr const char* kWindowCounter = "ridgeline.collector_window";

class TimedLoop {
 public:
  TimedLoop(Kernel& kernel, const CaseSpec& spec, std::vector<MemoryRange> cold_memory,
            const WorkModel& work, std::vector<std::unique_ptr<Collector>>& collectors);

  void operator()(benchmark::State& state);

  // Whether the iterations' times are set by the loop (device events, cold calls).
  bool manual_time() const { return device_timed_ || cold_; }
  bool cold() const { return cold_; }
  // Each call's readings, by the index its reported run carries in kWindowCounter.
  const std::vector<std::vector<Metric>>& windows() const { return windows_; }
  // Why a call stopped (a device fault mid-run); empty where none did.
  const std::string& threw() const { return threw_; }

 private:
  double cold_call();

  Kernel& kernel_;
  const CaseSpec& spec_;
  const std::vector<MemoryRange> cold_memory_;  // flushed before each call with cache=cold
  const WorkModel& work_;
  std::vector<std::unique_ptr<Collector>>& collectors_;
  const std::string region_;  // under likwid-perfctr -m, one marker region per case
  const bool device_timed_;
  const bool cold_;
  PassClock* pass_clock_;
  std::vector<PassWork> passes_;
  std::vector<std::vector<Metric>> windows_;
  std::string threw_;
};

}  // namespace ridgeline
