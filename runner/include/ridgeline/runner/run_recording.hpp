#pragma once
// A Run being recorded: its context as it starts (this machine, each collector asked for and
// whether it runs here, what `ridgeline collectors --validate` found) and as it ends (the
// machine's load and the clock over the run). run_plan records a plan's cases through one;
// the Python module's ridgeline.Run records the functions it measures through another.
#include <chrono>
#include <memory>

#include "ridgeline/core/run.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

struct CpuTimes;

class RunRecording {
 public:
  explicit RunRecording(const RunSettings& settings);
  ~RunRecording();
  Run& run() { return run_; }
  // The load and clock over the recording, into the context; the Run, rows and all.
  Run finish();

 private:
  Run run_;
  double clock_start_hz_ = 0;
  std::unique_ptr<CpuTimes> load_start_;
  std::chrono::steady_clock::time_point wall_start_;
};

}  // namespace ridgeline
