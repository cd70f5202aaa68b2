#include "ranked_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/output_file.hpp"
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

// machine.json -> machine.node-b.json
std::filesystem::path beside(const std::filesystem::path& output, const std::string& host) {
  std::string safe;
  for (char c : host) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return output.parent_path() / (output.stem().string() + "." + safe + output.extension().string());
}

}  // namespace

int run_ranked_probe(const std::string& output, bool force, const ProbeOptions& probe,
                     const std::string& launcher) {
  if (const std::string why = cluster::mpi_off_reason(); !why.empty())
    throw InputError(fmt::format("started by {}, but {}: each process would probe its host at once",
                                 launcher, why));
  if (!output.empty()) check_output_file(output);
  cluster::RankWorld world;
  const cluster::RankPlace& place = world.place();
  std::string mine;  // this host's model, from its first rank
  if (place.local_rank == 0) {
    CacheOutcome outcome{};
    const MachineModel m = cached_or_probed_machine(
        force, probe,
        [&](const std::string& line) {
          fmt::print(stderr, "  {}: {}\n", escape_visible(place.host), line);
        },
        outcome);
    mine = to_json(m).dump();
  }
  world.host_barrier();  // the host's other ranks sleep until its probe is done
  const std::vector<std::string> all = world.all_gather(mine);
  if (place.rank != 0) return 0;
  std::vector<MachineModel> hosts;
  for (std::size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty())
      hosts.push_back(
          machine_from_json(nlohmann::json::parse(all[r]), fmt::format("rank {}'s model", r), ""));
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
      const std::filesystem::path file =
          i == 0 ? std::filesystem::path(output) : beside(output, hosts[i].host);
      write_machine_file(file, hosts[i]);
      fmt::print(stderr, "wrote {}\n", escape_visible(file.string()));
    }
  return 0;
}

}  // namespace ridgeline::cli
