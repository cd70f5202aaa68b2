// The probe's GPU ceilings: each microbenchmark sized to run about `seconds`, timed with
// CUDA events, best of `trials`.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "ceiling_kernels.hpp"
#include "cublaslt_plan.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

struct Context {
  const GpuDevice& device;
  cudaStream_t stream;
  void* sink;
  double clock_hz;
  double seconds;
  int trials;
};

// Best rate of `launch` (which enqueues work and returns its units: FLOPs or bytes) over the
// trials, after one untimed run.
template <typename Launch>
double best_rate(const Context& c, Launch launch) {
  EventTimer timer;
  launch();
  RIDGELINE_CUDA(cudaStreamSynchronize(c.stream));
  double best = 0;
  for (int t = 0; t < c.trials; ++t) {
    timer.start(c.stream);
    const double units = launch();
    const double s = timer.stop(c.stream);
    if (s > 0) best = std::max(best, units / s);
  }
  return best;
}

// Repetitions of `launch_once` (which returns its units) that take about `seconds`.
template <typename Launch>
int scaled_repeats(const Context& c, Launch launch_once) {
  EventTimer timer;
  launch_once();
  timer.start(c.stream);
  launch_once();
  const double s = timer.stop(c.stream);
  return static_cast<int>(std::clamp(c.seconds / std::max(s, 1e-7), 1.0, 100000.0));
}

GpuCeiling compute_ceiling(const Context& c, const std::string& cls, const std::string& dtype,
                           const std::string& name, const std::string& method, double rate) {
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

std::string rate_text(const GpuCeiling& g) {
  if (g.kind == "memory") return fmt::format("{:9.1f} GB/s", g.value / 1e9);
  if (g.kind == "overhead") return fmt::format("{:9.2f} us", g.value * 1e6);
  return fmt::format("{:9.2f} T{}{}", g.value / 1e12, g.unit,
                     g.theoretical > 0
                         ? fmt::format(" ({:.0f}% of {:.1f} theoretical)",
                                       100 * g.value / g.theoretical, g.theoretical / 1e12)
                         : "");
}

// cuBLASLt at n^3 on uniform data filled on the device: what the vendor library reaches.
double cublaslt_rate(const Context& c, DType dtype, std::int64_t n) {
  const std::size_t in = size_of(dtype), out = size_of(output_dtype(dtype));
  const auto elements = static_cast<std::size_t>(n * n);
  DeviceBuffer a(elements * in), b(elements * in), cc(elements * out),
      workspace(kCublasLtWorkspaceBytes);
  const int code = dtype == DType::i8     ? 1
                   : dtype == DType::bf16 ? 2
                   : dtype == DType::f16  ? 3
                   : dtype == DType::f64  ? 4
                                          : 0;
  launch_fill_uniform(a.get(), elements, code, 1, c.stream);
  launch_fill_uniform(b.get(), elements, code, 2, c.stream);
  const DeviceGemm g{a.get(), b.get(), cc.get(), n, n, n, n, n, n, false, false, dtype};
  cublasLtHandle_t handle = nullptr;
  RIDGELINE_CUBLAS(cublasLtCreate(&handle));
  std::unique_ptr<cublasLtHandle_t, void (*)(cublasLtHandle_t*)> guard(
      &handle, [](cublasLtHandle_t* h) { cublasLtDestroy(*h); });
  const CublasLtPlan plan(handle, g, workspace.bytes());
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  const auto once = [&] {
    plan.run(g, workspace.get(), workspace.bytes(), c.stream);
    return flops;
  };
  const int repeats = scaled_repeats(c, once);
  return best_rate(c, [&] {
    for (int r = 0; r < repeats; ++r) once();
    return flops * repeats;
  });
}

}  // namespace

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
  const Context c{device, stream.get(), sink.get(), 1e3 * khz, seconds, trials};
  const cudaStream_t s = stream.get();
  const int sms = device.multiprocessors;
  const auto add = [&](GpuCeiling g) {
    progress(fmt::format("GPU {:<24} {} ({})", g.name, rate_text(g), g.method));
    out.push_back(std::move(g));
  };

  // Arithmetic: register-only loops, iterations scaled to the time asked for.
  const auto loop_rate = [&](auto launch_with_iterations) {
    int iterations = 1000;
    const int repeats = scaled_repeats(c, [&] { return launch_with_iterations(iterations); });
    iterations = std::max(1000, std::min(iterations * repeats, 1 << 24));
    return best_rate(c, [&] { return launch_with_iterations(iterations); });
  };
  if (wanted("gpu.f64.fma"))
    add(compute_ceiling(
        c, "f64.fma", "f64", "gpu.f64.fma", "FMA chains in registers",
        loop_rate([&](int it) { return launch_fma_peak_f64(sms * 8, 256, it, sink.get(), s); })));
  if (wanted("gpu.f32.fma"))
    add(compute_ceiling(
        c, "f32.fma", "f32", "gpu.f32.fma", "FMA chains in registers",
        loop_rate([&](int it) { return launch_fma_peak_f32(sms * 8, 256, it, sink.get(), s); })));
  for (const char* kind : {"tf32", "bf16", "f16", "i8"}) {
    const std::string name = fmt::format("gpu.{}.mma_sync", kind);
    if (!wanted(name)) continue;
    add(compute_ceiling(
        c, kind, kind, name,
        std::string("mma.sync ") +
            (std::string(kind) == "tf32" ? "m16n8k8"
             : std::string(kind) == "i8" ? "m16n8k32"
                                         : "m16n8k16") +
            " on registers",
        loop_rate([&](int it) { return launch_mma_peak(kind, sms * 4, 8, it, sink.get(), s); })));
  }
  // What cuBLASLt reaches at 8192^3: the tensor-core ceiling a library kernel can reach
  // (wgmma on Hopper, which mma.sync cannot issue).
  for (DType d : {DType::f64, DType::f32, DType::tf32, DType::bf16, DType::f16, DType::i8}) {
    const std::string dt(to_string(d));
    const std::string name = "gpu." + dt + ".cublaslt";
    if (!wanted(name)) continue;
    const std::string cls = d == DType::f64 ? "f64.fma" : d == DType::f32 ? "f32.fma" : dt;
    add(compute_ceiling(c, cls, dt, name, "cuBLASLt GEMM 8192^3, uniform data",
                        cublaslt_rate(c, d, 8192)));
  }

  // Bandwidth. HBM: two arrays of up to 2 GiB each (a quarter of free memory at most).
  std::size_t free_bytes = 0, total_bytes = 0;
  RIDGELINE_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t big = std::min<std::size_t>(std::size_t(2) << 30, free_bytes / 4) / 4096 * 4096;
  if (wanted("HBM.copy") || wanted("HBM.read")) {
    DeviceBuffer x(big), y(big);
    RIDGELINE_CUDA(cudaMemsetAsync(x.get(), 0, big, s));
    RIDGELINE_CUDA(cudaMemsetAsync(y.get(), 0, big, s));
    const auto bytes = static_cast<std::int64_t>(2 * big);
    if (wanted("HBM.copy")) {
      add(memory_ceiling("HBM", "copy", "copy kernel, 16-byte vectors (read + write counted)",
                         best_rate(c,
                                   [&] {
                                     launch_copy(y.get(), x.get(), big, sms * 8, s);
                                     return 2.0 * big;
                                   }),
                         bytes));
      add(memory_ceiling("HBM", "copy", "cudaMemcpyAsync device to device (read + write counted)",
                         best_rate(c,
                                   [&] {
                                     RIDGELINE_CUDA(cudaMemcpyAsync(y.get(), x.get(), big,
                                                                    cudaMemcpyDeviceToDevice, s));
                                     return 2.0 * big;
                                   }),
                         bytes));
    }
    if (wanted("HBM.read"))
      add(memory_ceiling("HBM", "read", "sum kernel, 16-byte vectors",
                         best_rate(c,
                                   [&] {
                                     launch_read(x.get(), big, 1, sink.get(), sms * 8, s);
                                     return 1.0 * big;
                                   }),
                         static_cast<std::int64_t>(big)));
  }
  if (wanted("L2.read")) {
    // Under half of L2: Hopper's L2 is two partitions, and a line may live in the far one.
    const std::size_t bytes = static_cast<std::size_t>(device.l2_bytes) * 2 / 5 / 4096 * 4096;
    DeviceBuffer x(bytes);
    RIDGELINE_CUDA(cudaMemsetAsync(x.get(), 0, bytes, s));
    const auto once = [&] {
      launch_read(x.get(), bytes, 1, sink.get(), sms * 8, s);
      return 1.0 * bytes;
    };
    const int passes = scaled_repeats(c, once);
    add(memory_ceiling("L2", "read", "sum kernel, 16-byte ld.global.cg, buffer 40% of L2",
                       best_rate(c,
                                 [&] {
                                   launch_read(x.get(), bytes, passes, sink.get(), sms * 8, s);
                                   return 1.0 * bytes * passes;
                                 }),
                       static_cast<std::int64_t>(bytes)));
  }
  if (wanted("SMEM.read")) {
    const int passes =
        scaled_repeats(c, [&] { return launch_shared_read(sms * 4, 64, sink.get(), s); });
    add(memory_ceiling(
        "SMEM", "read", "32 KiB per block read as 16-byte vectors",
        best_rate(c, [&] { return launch_shared_read(sms * 4, 64 * passes, sink.get(), s); }),
        32 * 1024));
  }
  for (const bool to_device : {true, false}) {
    const std::string kernel = to_device ? "h2d" : "d2h";
    if (!wanted("PCIe." + kernel)) continue;
    const std::size_t bytes = std::size_t(256) << 20;
    void* host = nullptr;
    RIDGELINE_CUDA(cudaMallocHost(&host, bytes));
    std::unique_ptr<void, cudaError_t (*)(void*)> pinned(host, &cudaFreeHost);
    DeviceBuffer d(bytes);
    add(memory_ceiling(
        "PCIe", kernel, "cudaMemcpyAsync of 256 MiB pinned host memory",
        best_rate(c,
                  [&] {
                    RIDGELINE_CUDA(cudaMemcpyAsync(
                        to_device ? d.get() : host, to_device ? host : d.get(), bytes,
                        to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s));
                    return 1.0 * bytes;
                  }),
        static_cast<std::int64_t>(bytes)));
  }

  // Launch overhead: host wall time per launch of an empty kernel, queued back to back,
  // and per kernel when 100 of them are replayed as one CUDA graph.
  if (wanted("gpu.launch")) {
    constexpr int n = 20000;
    double best = 1e9;
    for (int t = 0; t < c.trials; ++t) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) launch_empty(s);
      RIDGELINE_CUDA(cudaStreamSynchronize(s));
      best = std::min(
          best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n);
    }
    add({"overhead", "gpu.launch", "", "", "",
         "empty kernel launches back to back, host wall time / launches", "s", best, 0, "", 0});
  }
  if (wanted("gpu.graph_launch")) {
    constexpr int per_graph = 100, replays = 200;
    cudaGraph_t graph = nullptr;
    RIDGELINE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < per_graph; ++i) launch_empty(s);
    RIDGELINE_CUDA(cudaStreamEndCapture(s, &graph));
    std::unique_ptr<CUgraph_st, cudaError_t (*)(cudaGraph_t)> graph_guard(graph, &cudaGraphDestroy);
    cudaGraphExec_t exec = nullptr;
    RIDGELINE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    std::unique_ptr<CUgraphExec_st, cudaError_t (*)(cudaGraphExec_t)> exec_guard(
        exec, &cudaGraphExecDestroy);
    RIDGELINE_CUDA(cudaGraphLaunch(exec, s));
    RIDGELINE_CUDA(cudaStreamSynchronize(s));
    double best = 1e9;
    for (int t = 0; t < c.trials; ++t) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < replays; ++r) RIDGELINE_CUDA(cudaGraphLaunch(exec, s));
      RIDGELINE_CUDA(cudaStreamSynchronize(s));
      best = std::min(best,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                          (per_graph * replays));
    }
    add({"overhead", "gpu.graph_launch", "", "", "",
         "100 empty kernels per CUDA graph, host wall time / kernels", "s", best, 0, "", 0});
  }
  return out;
}

}  // namespace ridgeline
