#include "ridgeline/runner/probe.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "empty_kernel.hpp"
#include "probe_memory.hpp"
#include "ridgeline/core/emulation.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/user_pattern.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "ridgeline/runner/isolation.hpp"
#include "ridgeline/runner/plan.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

std::uint64_t total_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemTotal:") return kb * 1024;
  return 0;
}

// Cost of one Kernel::run() of a kernel that does nothing, timed the way every case is.
double call_overhead_seconds(double min_time) {
  auto kernel = make_empty_kernel();
  double per_call = 0;
  class Capture : public benchmark::BenchmarkReporter {
   public:
    explicit Capture(double& out) : out_(out) {}
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
      for (const auto& r : runs)
        if (r.run_type == Run::RT_Iteration && r.iterations > 0)
          out_ = r.real_accumulated_time / static_cast<double>(r.iterations);
    }

   private:
    double& out_;
  } capture(per_call);
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark("overhead/call",
                               [&](benchmark::State& state) {
                                 // Through a pointer the compiler cannot see into: in
                                 // one unity batch with the empty kernel it devirtualised
                                 // and removed the call, and the loop timed 2e-16 s a call.
                                 for (auto _ : state) {
                                   Kernel* k = kernel.get();
                                   benchmark::DoNotOptimize(k);
                                   k->run();
                                 }
                               })
      ->MinTime(min_time)
      ->UseRealTime();
  benchmark::RunSpecifiedBenchmarks(&capture, ".");
  benchmark::ClearRegisteredBenchmarks();
  return per_call;
}

std::string hex64(std::uint64_t x) {
  return fmt::format("{:016x}", x);
}

// The GPUs and the ceilings of GPU 0, when this build and machine have them.
void probe_gpus(MachineModel& m, const std::function<bool(const std::string&)>& wanted,
                const ProbeOptions& opt, const ProbeProgress& progress) {
  const GpuProbe& gpu = gpu_probe();
  for (const auto& d : gpu.devices)
    m.gpus.push_back({d.index, d.name, fmt::format("{}.{}", d.cc_major, d.cc_minor),
                      d.multiprocessors, d.memory_bytes, d.l2_bytes, 0});
  if (!gpu.available()) {
    m.gpu_reason = gpu.reason;
    progress("GPU: none (" + gpu.reason + ")");
    return;
  }
  std::vector<GpuCeiling> ceilings;
  try {
    ceilings = measure_gpu_ceilings(wanted, progress, opt.seconds_per_measurement, opt.trials);
  } catch (const std::exception& e) {  // a GPU that fails here leaves the CPU model intact
    m.gpu_reason = std::string("the GPU ceilings failed: ") + e.what();
    progress("GPU: " + m.gpu_reason);
  }
  for (const auto& g : ceilings) {
    if (g.kind == "failed") {  // one ceiling the device or library refused; the rest stand
      m.gpu_reason += (m.gpu_reason.empty() ? "not measured: " : "; ") + g.name + ": " + g.method;
    } else if (g.kind == "compute") {
      ComputeCeiling c;
      c.name = g.name;
      c.dtype = g.dtype;
      c.isa = g.dtype == "f64" || g.dtype == "f32" ? "simt" : "tensor";
      c.unit = g.unit;
      c.per_second = g.value;
      c.theoretical_per_second = g.theoretical;
      c.theoretical_reason = g.theoretical_reason;
      c.device = Device::gpu;
      c.compute_unit = inferred_ceiling_unit(c.name, c.dtype, c.device);
      c.method = g.method;
      m.compute.push_back(c);
    } else if (g.kind == "memory") {
      MemoryCeiling c;
      c.level = g.level;
      c.kernel = g.kernel;
      c.bytes_per_s = g.value;
      c.working_set_bytes = g.working_set_bytes;
      c.device = Device::gpu;
      c.method = g.method;
      m.memory.push_back(c);
    } else {
      m.overhead.push_back({g.name, g.value, MetricSource::timed, Device::gpu, g.method});
    }
  }
}

}  // namespace

std::string machine_fingerprint() {
  // Raised whenever what the probe measures changes, so cached machines are re-measured
  // (2: bandwidth ceilings are the best over the instruction widths; 3: GPU ceilings; 4: the
  // memory levels from sweeps, their ceilings in the middle of each plateau; 5: bandwidth loops
  // repeat themselves, L1 at likwid-bench parity, each width's rate and the phase times kept;
  // 6: a short ramp between two levels is not a cache, a noisy last level is still the last,
  // the measuring threads pinned one per core; 7: three interleaved passes of each sweep, the
  // levels anchored on the OS's sizes and replaced only on repeated evidence, each thread's
  // streams back to back in one mapping).
  constexpr int kProbeMethod = 7;
  const CpuFeatures& f = cpu_features();
  const CpuIdentity id = cpu_identity();
  std::string key =
      fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", kMachineSchemaVersion, kProbeMethod, f.model,
                  id.vendor, id.family, id.model, usable_cpus(), total_memory_bytes() >> 30);
  for (const auto& isa : f.isa_list()) key += "|" + isa;
  for (const auto& gpu : gpu_probe().devices) key += "|gpu:" + gpu.name + ":" + gpu.uuid;
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char ch : key) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return hex64(h);
}

namespace {
// This host's name as a part of a file name: a home directory shared by a cluster's nodes
// holds one cache per node, so each node's model is its own measurement, never a twin's.
std::string host_for_cache() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "host";
  std::string out;
  for (const char* c = name; *c; ++c)
    out += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' || *c == '.' ? *c : '_';
  return out;
}
}  // namespace

std::filesystem::path machine_cache_path() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = std::filesystem::path(home) / ".cache";
  } else {
    // The last resort; temp_directory_path's own error ("filesystem error: ...") names
    // neither the variable nor what to do.
    std::error_code ec;
    base = std::filesystem::temp_directory_path(ec);
    const char* tmpdir = std::getenv("TMPDIR");
    if (ec || ::access(base.c_str(), W_OK | X_OK) != 0)
      throw InputError(fmt::format(
          "no directory for this machine's cached model: HOME and XDG_CACHE_HOME are unset and "
          "TMPDIR ({}) is not a writable directory; set HOME or XDG_CACHE_HOME to one",
          tmpdir && *tmpdir ? tmpdir : "unset, so /tmp"));
  }
  return base / "ridgeline" /
         ("machine-" + host_for_cache() + "-" + machine_fingerprint() + ".json");
}

std::optional<MachineModel> cached_machine(std::string& why) {
  const std::filesystem::path cache = machine_cache_path();
  std::error_code ec;
  if (!std::filesystem::exists(cache, ec)) {
    why = "none cached for this machine (" + cache.string() + ")";
    return std::nullopt;
  }
  try {
    MachineModel m = read_machine_file(cache);
    if (m.fingerprint == machine_fingerprint()) return m;
    why = fmt::format("{}: fingerprint {} is not this machine's ({}): another machine's model",
                      cache.string(), m.fingerprint, machine_fingerprint());
  } catch (const InputError& e) {
    why = e.what();  // the file and the field
  }
  return std::nullopt;
}

MachineModel probe_machine(const ProbeOptions& opt, const ProbeProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  const CpuFeatures& features = cpu_features();
  const CpuIdentity id = cpu_identity();
  const CacheSizes& caches = hwloc_cache_sizes();
  const int cores = usable_cpus();
  RunContext ctx = current_context();

  MachineModel m;
  PhaseTimer phases(m);
  m.fingerprint = machine_fingerprint();
  m.date = ctx.date;
  m.host = ctx.host_name;
  m.ridgeline_version = RIDGELINE_VERSION;
  m.cpu_model = features.model;
  m.cpu_vendor = id.vendor;
  m.cpu_family = id.family;
  m.cpu_model_number = id.model;
  m.cores = cores;
  m.isa = features.isa_list();
  m.emulated = emulation_reason();
  m.l1d_bytes = caches.l1d;
  m.l2_bytes = caches.l2;
  m.l3_bytes = caches.l3;
  m.memory_bytes = total_memory_bytes();
  m.byte_convention =
      "STREAM/likwid-bench: every array element loaded or stored once per sweep counts its "
      "bytes; write-allocate reads of stored lines are not counted; read = sum(A), write: A = s, "
      "copy: A = B (16 B/element), triad: A = B * C + D (32 B/element); working set = all arrays "
      "of all threads";

  m.measured_clock_hz = measure_clock_hz();
  m.clock_method =
      "dependent chain of 64-bit integer adds (1 cycle each), fastest of 9 runs of 80 M cycles";
  progress(fmt::format("clock: {:.0f} MHz (measured)", m.measured_clock_hz / 1e6));
  phases.done("clock");

  std::optional<UserPattern> only;
  if (!opt.only.empty()) only.emplace(opt.only, "--only");
  auto wanted = [&](const std::string& name) { return !only || only->search(name); };

  std::vector<int> thread_counts{1};
  if (cores > 1) thread_counts.push_back(cores);
  for (const PeakSpec& spec : peak_specs()) {
    if (!wanted(spec.name)) continue;
    if (const std::string why = spec.absent(features); !why.empty()) {
      m.absent_compute.push_back({spec.name, spec.dtype, spec.unit, why});
      progress(fmt::format("{:<20} absent: {}", spec.name, why));
      continue;
    }
    std::string why;
    const auto per_cycle = design_ops_per_cycle(id, spec, why);
    for (int threads : thread_counts) {
      ComputeCeiling c;
      c.name = spec.name;
      c.dtype = spec.dtype;
      c.isa = spec.isa;
      c.unit = spec.unit;
      c.compute_unit = inferred_ceiling_unit(c.name, c.dtype, Device::cpu);  // ".amx": the tiles
      c.threads = threads;
      if (spec.method) c.method = spec.method();
      const PeakMeasurement peak =
          measure_peak(spec, threads, opt.seconds_per_measurement, opt.trials);
      c.per_second = peak.per_second;
      c.clock_hz = peak.clock_hz;
      if (per_cycle)  // at the clock measured around the loop itself
        c.theoretical_per_second = threads * peak.clock_hz * *per_cycle;
      else
        c.theoretical_reason = why;
      progress(fmt::format("{:<20} {} thread{}: {:8.1f} G{}{}", spec.name, threads,
                           threads > 1 ? "s" : " ", c.per_second / 1e9, spec.unit,
                           per_cycle ? fmt::format(" ({:.0f}% of {:.1f} theoretical)",
                                                   100 * c.per_second / c.theoretical_per_second,
                                                   c.theoretical_per_second / 1e9)
                                     : ""));
      m.compute.push_back(c);
    }
  }
  if (!m.compute.empty()) phases.done("peaks");
  probe_memory(m, thread_counts, stream_isas(features), caches, wanted, opt, phases, progress);
  if (wanted("call")) {
    const double call = call_overhead_seconds(opt.seconds_per_measurement);
    m.overhead.push_back({"call", call, MetricSource::timed, Device::cpu,
                          "empty kernel run() under Google Benchmark"});
    progress(fmt::format("call overhead: {:.2f} ns", call * 1e9));
    phases.done("call");
  }
  probe_gpus(m, wanted, opt, progress);
  phases.done("gpu");
  m.probe_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return m;
}

MachineModel probe_machine_isolated(const ProbeOptions& options, const ProbeProgress& progress) {
  ChildOutcome out =
      run_isolated([&] { return to_json(probe_machine(options, progress)).dump(); }, 600);
  if (out.status != ChildOutcome::Status::completed)
    throw std::runtime_error("the probe " + (out.detail.empty() ? "failed" : out.detail));
  return machine_from_json(nlohmann::json::parse(out.payload), "probe result", "");
}

MachineModel cached_or_probed_machine(bool force, const ProbeOptions& options,
                                      const ProbeProgress& progress, CacheOutcome& outcome) {
  outcome = CacheOutcome::not_cached;
  if (!options.only.empty()) {
    UserPattern(options.only, "--only");  // checked here, where an error is one line, exit 2
    return probe_machine_isolated(options, progress);
  }
  const std::filesystem::path cache = machine_cache_path();
  if (!force) {
    std::string why;
    if (auto m = cached_machine(why)) {
      outcome = CacheOutcome::from_cache;
      return *m;
    }
    std::error_code ec;
    if (std::filesystem::exists(cache, ec))
      progress(fmt::format("re-measuring: the cached model is not used: {}", why));
  }
  const auto before = cache_stamp(cache);
  MachineModel m = probe_machine_isolated(options, progress);
  outcome = commit_to_cache(cache, m, before, progress);
  return m;
}

std::optional<std::filesystem::file_time_type> cache_stamp(const std::filesystem::path& cache) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(cache, ec);
  return ec ? std::nullopt : std::optional(t);
}

CacheOutcome commit_to_cache(const std::filesystem::path& cache, const MachineModel& m,
                             std::optional<std::filesystem::file_time_type> seen_at_start,
                             const ProbeProgress& progress) {
  std::error_code ec;
  std::filesystem::create_directories(cache.parent_path(), ec);
  try {
    const OutputLock lock(cache, "probe", true);
    if (const auto now = cache_stamp(cache); now && now != seen_at_start) {
      progress(
          fmt::format("another probe finished first and cached its model in {}; this "
                      "probe's measurements are used by this command only",
                      cache.string()));
      return CacheOutcome::not_cached;
    }
    write_machine_file(cache, m);
    return CacheOutcome::cached;
  } catch (const InputError& e) {
    progress(fmt::format("could not cache the machine model: {}", e.what()));
  }
  return CacheOutcome::not_cached;
}

}  // namespace ridgeline
