#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>

#include "build_info.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {
std::string local_time_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
  // +0000 -> +00:00, as Google Benchmark writes it.
  std::string_view s = buf;
  return fmt::format("{}:{}", s.substr(0, s.size() - 2), s.substr(s.size() - 2));
}

std::string executable_path() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "ridgeline";
}
}  // namespace

RunContext current_context() {
  const auto& cpu = benchmark::CPUInfo::Get();
  RunContext c;
  c.date = local_time_iso8601();
  c.host_name = benchmark::SystemInfo::Get().name;
  c.executable = executable_path();
  c.num_cpus = cpu.num_cpus;
  c.mhz_per_cpu = cpu.cycles_per_second / 1e6;
  c.cpu_scaling_enabled = cpu.scaling == benchmark::CPUInfo::ENABLED;
  for (const auto& cache : cpu.caches)
    c.caches.push_back({cache.type, cache.level, cache.size, cache.num_sharing});
  c.load_avg = cpu.load_avg;
#ifdef NDEBUG
  c.library_build_type = "release";
#else
  c.library_build_type = "debug";
#endif
  c.has_ridgeline = true;
  c.version = RIDGELINE_VERSION;
  c.cpu_model = cpu_features().model;
  c.isa = cpu_features().isa_list();
  c.provenance.commit = build_info().commit;
  c.provenance.compiler = build_info().compiler;
  c.provenance.flags = build_info().flags;
  return c;
}

}  // namespace ridgeline
