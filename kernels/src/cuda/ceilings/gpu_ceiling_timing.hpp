#pragma once
// Shared by the GPU ceiling measurements: the device and stream they run on, CUDA-event
// timing (best of the trials after an untimed run), and sizing a run to the time asked for.
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <string>

#include "../device_buffer.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

struct CeilingContext {
  const GpuDevice& device;
  cudaStream_t stream;
  void* sink;       // 64 bytes kernels may write so their work is kept
  double clock_hz;  // the device's maximum SM clock
  double seconds;   // each trial runs about this long
  int trials;
};

// Measures the ceiling `name` when the probe wants it; a failure (a library refusing a
// configuration) is recorded with its reason and the other ceilings go on.
using MeasureCeiling =
    std::function<void(const std::string& name, const std::function<GpuCeiling()>&)>;

// Best rate of `launch` (which enqueues work and returns its units: FLOPs or bytes) over
// the trials, after one untimed run.
template <typename Launch>
double best_rate(const CeilingContext& c, Launch launch) {
  EventTimer timer;
  launch();
  cudaStreamSynchronize(c.stream);
  double best = 0;
  for (int t = 0; t < c.trials; ++t) {
    timer.start(c.stream);
    const double units = launch();
    const double s = timer.stop(c.stream);
    if (s > 0) best = std::max(best, units / s);
  }
  return best;
}

// How many runs of `launch_once` take about `c.seconds` (1 to 100000).
template <typename Launch>
int scaled_repeats(const CeilingContext& c, Launch launch_once) {
  EventTimer timer;
  launch_once();
  timer.start(c.stream);
  launch_once();
  const double s = timer.stop(c.stream);
  return static_cast<int>(std::clamp(c.seconds / std::max(s, 1e-7), 1.0, 100000.0));
}

GpuCeiling compute_ceiling(const CeilingContext& c, const std::string& cls,
                           const std::string& dtype, const std::string& name,
                           const std::string& method, double rate);
GpuCeiling memory_ceiling(const std::string& level, const std::string& kernel,
                          const std::string& method, double rate, std::int64_t bytes);

void measure_compute_ceilings(const CeilingContext& c, const MeasureCeiling& measure);
void measure_memory_ceilings(const CeilingContext& c, const MeasureCeiling& measure);
void measure_launch_ceilings(const CeilingContext& c, const MeasureCeiling& measure);

}  // namespace ridgeline
