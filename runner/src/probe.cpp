#include "ridgeline/runner/probe.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>
#include <thread>

#include "empty_kernel.hpp"
#include "memory_sweep.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "ridgeline/runner/isolation.hpp"
#include "ridgeline/runner/plan.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

int usable_cores() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

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
                                 for (auto _ : state) kernel->run();
                               })
      ->MinTime(min_time)
      ->UseRealTime();
  benchmark::RunSpecifiedBenchmarks(&capture, ".");
  benchmark::ClearRegisteredBenchmarks();
  return per_call;
}

std::string thread_text(int threads) {
  return fmt::format("{} thread{}", threads, threads > 1 ? "s" : "");
}

// Where each level's ceilings are measured: the middle of its plateau in this thread count's
// read sweep. A level the sweep did not show gets no ceiling (`progress` says so).
std::vector<std::pair<std::string, std::int64_t>> working_sets(const MachineModel& m, int threads,
                                                               const ProbeProgress& progress) {
  std::vector<std::pair<std::string, std::int64_t>> sets;
  for (const char* name : {"L1", "L2", "L3", "DRAM"}) {
    const auto level = std::find_if(m.levels.begin(), m.levels.end(), [&](const MeasuredLevel& l) {
      return l.name == name && l.kernel == "read" && l.threads == threads;
    });
    if (level == m.levels.end()) {
      progress(fmt::format("{} on {}: no plateau in the read sweep, so no ceilings", name,
                           thread_text(threads)));
      continue;
    }
    sets.emplace_back(name, static_cast<std::int64_t>(
                                std::llround(std::sqrt(static_cast<double>(level->first_bytes) *
                                                       static_cast<double>(level->last_bytes)))));
  }
  return sets;
}

// Closes each phase of the probe into m.phases with the wall time since the previous one.
class PhaseTimer {
 public:
  explicit PhaseTimer(MachineModel& m) : m_(m), last_(std::chrono::steady_clock::now()) {}
  void done(std::string name) {
    const auto now = std::chrono::steady_clock::now();
    m_.phases.push_back({std::move(name), std::chrono::duration<double>(now - last_).count()});
    last_ = now;
  }

 private:
  MachineModel& m_;
  std::chrono::steady_clock::time_point last_;
};

std::string size_text(std::int64_t bytes) {
  if (bytes >= (std::int64_t{1} << 20)) return fmt::format("{:.1f} MiB", bytes / 1048576.0);
  return fmt::format("{:.0f} KiB", bytes / 1024.0);
}

// The read and copy sweeps on each thread count and the levels in them.
void sweep_hierarchy(MachineModel& m, int threads, StreamIsa isa, const CacheSizes& caches,
                     bool verbose, PhaseTimer& phases, const ProbeProgress& progress) {
  MemorySweepOptions options;
  if (m.memory_bytes > 0)  // a quarter of the memory at most, on a small machine
    options.max_bytes =
        std::min<std::int64_t>(options.max_bytes, static_cast<std::int64_t>(m.memory_bytes / 4));
  for (StreamKernel kernel : {StreamKernel::read, StreamKernel::copy}) {
    // Its own arrays, freed before the next sweep, so what is resident stays bounded.
    StreamArrays arrays(threads, options.max_bytes / threads);
    const auto started = std::chrono::steady_clock::now();
    auto last = started;
    MemorySweep sweep =
        sweep_memory(kernel, arrays, isa, options, [&](std::int64_t bytes, double rate) {
          const auto now = std::chrono::steady_clock::now();
          if (verbose)
            progress(fmt::format("  {:>9}: {:7.1f} GB/s ({:.0f} ms)", size_text(bytes), rate / 1e9,
                                 std::chrono::duration<double, std::milli>(now - last).count()));
          last = now;
        });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    phases.done(fmt::format("sweep {} {}", sweep.kernel, thread_text(threads)));
    progress(fmt::format("sweep {} {}: {} points, {} to {}, {:.1f} s", sweep.kernel,
                         thread_text(threads), sweep.working_set_bytes.size(),
                         size_text(sweep.working_set_bytes.front()),
                         size_text(sweep.working_set_bytes.back()), seconds));
    for (const MeasuredLevel& l : levels_of(sweep, caches)) {
      std::string reported;
      if (l.reported_bytes > 0)
        reported = fmt::format("; hwloc {}{}", size_text(l.reported_bytes),
                               l.disagrees ? ", more than 2x off: the measured size is used" : "");
      progress(fmt::format("  {:<7} {:>9} to {:>9}: {:7.1f} GB/s{}{}", l.name,
                           size_text(l.first_bytes), size_text(l.last_bytes), l.bytes_per_s / 1e9,
                           l.capacity_bytes > 0
                               ? fmt::format(", steps down at {}", size_text(l.capacity_bytes))
                               : "",
                           reported));
      m.levels.push_back(l);
    }
    m.sweeps.push_back(std::move(sweep));
  }
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
      c.device = "gpu";
      c.method = g.method;
      m.compute.push_back(c);
    } else if (g.kind == "memory") {
      MemoryCeiling c;
      c.level = g.level;
      c.kernel = g.kernel;
      c.bytes_per_s = g.value;
      c.working_set_bytes = g.working_set_bytes;
      c.device = "gpu";
      c.method = g.method;
      m.memory.push_back(c);
    } else {
      m.overhead.push_back({g.name, g.value, MetricSource::timed, "gpu", g.method});
    }
  }
}

}  // namespace

std::string machine_fingerprint() {
  // Raised whenever what the probe measures changes, so cached machines are re-measured
  // (2: bandwidth ceilings are the best over the instruction widths; 3: GPU ceilings; 4: the
  // memory levels from sweeps, their ceilings in the middle of each plateau; 5: bandwidth loops
  // repeat themselves, L1 at likwid-bench parity, each width's rate and the phase times kept).
  constexpr int kProbeMethod = 5;
  const CpuFeatures& f = cpu_features();
  const CpuIdentity id = cpu_identity();
  std::string key =
      fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", kMachineSchemaVersion, kProbeMethod, f.model,
                  id.vendor, id.family, id.model, usable_cores(), total_memory_bytes() >> 30);
  for (const auto& isa : f.isa_list()) key += "|" + isa;
  for (const auto& gpu : gpu_probe().devices) key += "|gpu:" + gpu.name + ":" + gpu.uuid;
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char ch : key) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return hex64(h);
}

std::filesystem::path machine_cache_path() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".cache";
  else
    base = std::filesystem::temp_directory_path();
  return base / "ridgeline" / ("machine-" + machine_fingerprint() + ".json");
}

MachineModel probe_machine(const ProbeOptions& opt, const ProbeProgress& progress) {
  const auto started = std::chrono::steady_clock::now();
  const CpuFeatures& features = cpu_features();
  const CpuIdentity id = cpu_identity();
  const CacheSizes& caches = hwloc_cache_sizes();
  const int cores = usable_cores();
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

  std::optional<std::regex> only;
  if (!opt.only.empty()) only.emplace(opt.only, std::regex::ECMAScript);
  auto wanted = [&](const std::string& name) { return !only || std::regex_search(name, *only); };

  std::vector<int> thread_counts{1};
  if (cores > 1) thread_counts.push_back(cores);
  for (const PeakSpec& spec : peak_specs()) {
    if (!spec.available(features) || !wanted(spec.name)) continue;
    std::string why;
    const auto per_cycle = design_ops_per_cycle(id, spec, why);
    for (int threads : thread_counts) {
      ComputeCeiling c;
      c.name = spec.name;
      c.dtype = spec.dtype;
      c.isa = spec.isa;
      c.unit = spec.unit;
      c.threads = threads;
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
  const std::vector<StreamIsa> widths = stream_isas(features);
  // The sweeps place the memory ceilings, so they run whenever one of those is wanted.
  bool any_memory = wanted("sweep");
  for (const char* level : {"L1", "L2", "L3", "DRAM"})
    for (StreamKernel k : stream_kernels()) any_memory |= wanted(level + ("." + to_string(k)));
  // Each sweep and each thread count's ceilings get their own arrays, freed when done: the
  // pages of the largest working sets are faulted in again (a fraction of a second), but the
  // resident size stays within the 1 GiB budget (docs/roofline.md).
  for (int threads : thread_counts) {
    if (any_memory)
      sweep_hierarchy(m, threads, widths.back(), caches, opt.verbose, phases, progress);
    const auto sets = working_sets(m, threads, progress);
    std::int64_t largest = 0;
    for (const auto& set : sets) largest = std::max(largest, set.second);
    StreamArrays arrays(threads, largest / threads);
    const std::size_t ceilings_before = m.memory.size();
    for (const auto& [level, bytes] : sets)
      for (StreamKernel k : stream_kernels()) {
        if (!wanted(level + "." + to_string(k))) continue;
        const BandwidthMeasurement b =
            measure_bandwidth(k, bytes, arrays, widths, opt.seconds_per_measurement, opt.trials);
        MemoryCeiling c;
        c.level = level;
        c.kernel = to_string(k);
        c.isa = to_string(b.best_isa);
        c.threads = threads;
        c.working_set_bytes = bytes;
        c.bytes_per_s = b.best;
        std::string each;
        for (const auto& [isa, bw] : b.per_isa) {
          c.widths.emplace_back(to_string(isa), bw);
          each += fmt::format(" {} {:.1f}", to_string(isa), bw / 1e9);
        }
        progress(fmt::format("{:<4} {:<5} {} thread{} {:>9} KiB: {:8.1f} GB/s ({})", level,
                             c.kernel, c.threads, c.threads > 1 ? "s" : " ", bytes / 1024,
                             c.bytes_per_s / 1e9, each.substr(1)));
        m.memory.push_back(c);
      }
    if (m.memory.size() > ceilings_before) phases.done("ceilings " + thread_text(threads));
  }
  if (wanted("call")) {
    const double call = call_overhead_seconds(opt.seconds_per_measurement);
    m.overhead.push_back(
        {"call", call, MetricSource::timed, "cpu", "empty kernel run() under Google Benchmark"});
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
    try {  // checked here, where an error is still one line and exit code 2
      std::regex(options.only, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw InputError(
          fmt::format("--only '{}': invalid regular expression: {}", options.only, e.what()));
    }
    return probe_machine_isolated(options, progress);
  }
  const std::filesystem::path cache = machine_cache_path();
  std::error_code ec;
  if (!force && std::filesystem::exists(cache, ec)) {
    try {
      MachineModel m = read_machine_file(cache);
      if (m.fingerprint == machine_fingerprint()) {
        outcome = CacheOutcome::from_cache;
        return m;
      }
    } catch (const InputError& e) {
      progress(fmt::format("ignoring the cached machine model: {}", e.what()));
    }
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
