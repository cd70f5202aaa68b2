#include "ranked_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/cluster/ranked_network_probe.hpp"
#include "ridgeline/cluster/ranked_probe.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline::cli {

namespace {

// The best compute ceiling of a dtype at the most threads, and the DRAM copy at the most
// threads: what a line per host compares.
double best_compute(const MachineModel& m, const std::string& dtype) {
  double best = 0;
  for (const auto& c : m.compute)
    if (c.device == Device::cpu && c.dtype == dtype && c.threads == m.cores)
      best = std::max(best, c.per_second);
  return best;
}
double dram_copy(const MachineModel& m) {
  double best = 0;
  for (const auto& c : m.memory)
    if (c.device == Device::cpu && c.level == display_name(MemoryLevel::main) &&
        c.kernel == "copy" && c.threads == m.cores)
      best = std::max(best, c.bytes_per_s);
  return best;
}

// Over the hosts that have the ceiling.
double median(std::vector<double> v) {
  std::erase(v, 0.0);
  return median_of(std::move(v));
}

std::string against(double value, double mid, double scale, const char* unit) {
  if (value <= 0) return "—";
  return fmt::format("{:.1f} {} ({:+.1f}%)", value / scale, unit, (value / mid - 1) * 100);
}

std::string bytes_label(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

// One line per buffers, scope and pattern (MPI's host buffers first, then NCCL's GPUs): the
// smallest message's time, the largest one's rates.
void print_network(const MachineModel& m) {
  std::map<std::tuple<Device, std::string, std::string>, std::vector<const NetworkCeiling*>> rows;
  for (const NetworkCeiling& c : m.network) rows[{c.device, c.scope, c.pattern}].push_back(&c);
  for (const auto& [key, points] : rows) {
    const NetworkCeiling& small = *points.front();
    const NetworkCeiling& large = *points.back();
    fmt::print(
        "  {:<4} {:<10} {:<14} {} ranks  {:>6}: {:9.2f} us   {:>6}: {:8.2f} GB/s (bus {:.2f})\n",
        std::get<0>(key) == Device::gpu ? "GPU" : "host", std::get<1>(key), std::get<2>(key),
        small.ranks, bytes_label(small.bytes), small.seconds * 1e6, bytes_label(large.bytes),
        large.bytes_per_s / 1e9, large.bus_bytes_per_s / 1e9);
  }
  if (!m.network_reason.empty()) fmt::print("  ({})\n", m.network_reason);
}

void say_on_stderr(const std::string& line) {
  fmt::print(stderr, "{}\n", line);
}

}  // namespace

int run_ranked_probe(const std::string& output, bool force, const ProbeOptions& probe,
                     const std::string& launcher) {
  const std::optional<std::vector<MachineModel>> probed = cluster::probe_every_host(
      launcher, output, force, probe,
      [](const std::string& line) { fmt::print(stderr, "  {}\n", line); });
  if (!probed) return 0;  // not rank 0
  const std::vector<MachineModel>& hosts = *probed;
  std::vector<double> f64, f32, copy;
  for (const auto& m : hosts) {
    f64.push_back(best_compute(m, "f64"));
    f32.push_back(best_compute(m, "f32"));
    copy.push_back(dram_copy(m));
  }
  fmt::print("{} host{} probed, one rank each ({}); each against the hosts' median:\n",
             hosts.size(), hosts.size() == 1 ? "" : "s", launcher);
  for (std::size_t i = 0; i < hosts.size(); ++i)
    fmt::print("  {:<16} {} cores  f64 {}  f32 {}  DRAM copy {}\n", visible_line(hosts[i].host, 60),
               hosts[i].cores, against(f64[i], median(f64), 1e9, "GFLOP/s"),
               against(f32[i], median(f32), 1e9, "GFLOP/s"),
               against(copy[i], median(copy), 1e9, "GB/s"));
  if (!output.empty())
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      const std::string file = i == 0 ? output : cluster::host_model_file(output, hosts[i].host);
      write_machine_file(file, hosts[i]);
      fmt::print(stderr, "wrote {}\n", escape_visible(file));
    }
  return 0;
}

int run_network_probe(const std::string& output, std::int64_t max_bytes,
                      const std::string& launcher) {
  const std::optional<cluster::JobNetwork> network =
      cluster::measure_job_network(launcher, output, max_bytes, say_on_stderr);
  if (!network) return 0;  // not rank 0
  fmt::print("network between {} ranks on {} host{} ({}):\n", network->ranks, network->hosts,
             network->hosts == 1 ? "" : "s", launcher);
  print_network(network->model);
  if (!output.empty()) {
    write_machine_file(output, network->model);
    fmt::print(stderr, "wrote {}\n", escape_visible(output));
  }
  return 0;
}

}  // namespace ridgeline::cli
