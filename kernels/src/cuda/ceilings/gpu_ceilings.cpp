// The probe's GPU ceilings: each microbenchmark sized to run about `seconds`, timed with
// CUDA events, best of `trials`; the measurements themselves are in gpu_ceilings_compute.cpp
// and gpu_ceilings_memory.cpp.
#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "../cuda_check.hpp"
#include "ceiling_kernels.hpp"
#include "gpu_ceiling_timing.hpp"

namespace ridgeline {

GpuCeiling compute_ceiling(const CeilingContext& c, const std::string& cls,
                           const std::string& dtype, const std::string& name,
                           const std::string& method, double rate) {
  GpuCeiling g;
  g.kind = "compute";
  g.name = name;
  g.dtype = dtype;
  g.method = method;
  g.unit = dtype == "i8" ? "OP/s" : "FLOP/s";
  g.value = rate;
  const double per_clock = gpu_ops_per_clock_per_sm(c.device.cc_major, c.device.cc_minor, cls);
  if (per_clock > 0 && c.clock_hz > 0)
    g.theoretical = per_clock * c.device.multiprocessors * c.clock_hz;
  else
    g.theoretical_reason = fmt::format("sm_{}{} {} is not in the table of designs",
                                       c.device.cc_major, c.device.cc_minor, cls);
  return g;
}

GpuCeiling memory_ceiling(const std::string& level, const std::string& kernel,
                          const std::string& method, double rate, std::int64_t bytes) {
  GpuCeiling g;
  g.kind = "memory";
  g.name = level + "." + kernel;
  g.level = level;
  g.kernel = kernel;
  g.method = method;
  g.unit = "B/s";
  g.value = rate;
  g.working_set_bytes = bytes;
  return g;
}

namespace {

std::string rate_text(const GpuCeiling& g) {
  if (g.kind == "memory") return fmt::format("{:9.1f} GB/s", g.value / 1e9);
  if (g.kind == "overhead") return fmt::format("{:9.2f} us", g.value * 1e6);
  return fmt::format("{:9.2f} T{}{}", g.value / 1e12, g.unit,
                     g.theoretical > 0
                         ? fmt::format(" ({:.0f}% of {:.1f} theoretical)",
                                       100 * g.value / g.theoretical, g.theoretical / 1e12)
                         : "");
}

// Host wall time per launch of an empty kernel, `launches` queued back to back.
template <typename Enqueue>
double seconds_per_launch(const CeilingContext& c, int launches, Enqueue enqueue) {
  double best = 1e9;
  for (int t = 0; t < c.trials; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    enqueue();
    RIDGELINE_CUDA(cudaStreamSynchronize(c.stream));
    best = std::min(
        best,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / launches);
  }
  return best;
}

GpuCeiling overhead_ceiling(const std::string& name, const std::string& method, double seconds) {
  return {"overhead", name, "", "", "", method, "s", seconds, 0, "", 0};
}

}  // namespace

void measure_launch_ceilings(const CeilingContext& c, const MeasureCeiling& measure) {
  const cudaStream_t s = c.stream;
  measure("gpu.launch", [&] {
    constexpr int n = 20000;
    return overhead_ceiling("gpu.launch",
                            "empty kernel launches back to back, host wall time / launches",
                            seconds_per_launch(c, n, [&] {
                              for (int i = 0; i < n; ++i) launch_empty(s);
                            }));
  });
  measure("gpu.graph_launch", [&] {
    constexpr int per_graph = 100, replays = 200;
    cudaGraph_t graph = nullptr;
    RIDGELINE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < per_graph; ++i) launch_empty(s);
    RIDGELINE_CUDA(cudaStreamEndCapture(s, &graph));
    const std::unique_ptr<CUgraph_st, cudaError_t (*)(cudaGraph_t)> graph_guard(graph,
                                                                                &cudaGraphDestroy);
    cudaGraphExec_t exec = nullptr;
    RIDGELINE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    const std::unique_ptr<CUgraphExec_st, cudaError_t (*)(cudaGraphExec_t)> exec_guard(
        exec, &cudaGraphExecDestroy);
    RIDGELINE_CUDA(cudaGraphLaunch(exec, s));
    RIDGELINE_CUDA(cudaStreamSynchronize(s));
    return overhead_ceiling("gpu.graph_launch",
                            "100 empty kernels per CUDA graph, host wall time / kernels",
                            seconds_per_launch(c, per_graph * replays, [&] {
                              for (int r = 0; r < replays; ++r)
                                RIDGELINE_CUDA(cudaGraphLaunch(exec, s));
                            }));
  });
}

std::vector<GpuCeiling> measure_gpu_ceilings(
    const std::function<bool(const std::string&)>& wanted,
    const std::function<void(const std::string&)>& progress, double seconds, int trials) {
  std::vector<GpuCeiling> out;
  const GpuProbe& gpu = gpu_probe();
  if (!gpu.available()) return out;
  const GpuDevice& device = gpu.devices.front();
  RIDGELINE_CUDA(cudaSetDevice(device.index));
  CudaStream stream;
  DeviceBuffer sink(64);
  int khz = 0;
  RIDGELINE_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device.index));
  const CeilingContext c{device, stream.get(), sink.get(), 1e3 * khz, seconds, trials};
  const MeasureCeiling measure = [&](const std::string& name,
                                     const std::function<GpuCeiling()>& fn) {
    if (!wanted(name)) return;
    try {
      GpuCeiling g = fn();
      progress(fmt::format("GPU {:<24} {} ({})", g.name, rate_text(g), g.method));
      out.push_back(std::move(g));
    } catch (const std::exception& e) {
      cudaGetLastError();  // a launch error is sticky for the next check otherwise
      progress(fmt::format("GPU {:<24} not measured: {}", name, e.what()));
      GpuCeiling failed;
      failed.kind = "failed";
      failed.name = name;
      failed.method = e.what();
      out.push_back(std::move(failed));
    }
  };
  measure_compute_ceilings(c, measure);
  measure_memory_ceilings(c, measure);
  measure_launch_ceilings(c, measure);
  return out;
}

}  // namespace ridgeline
