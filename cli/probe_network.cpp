#include "probe_network.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <tuple>

#include "ranked_run.hpp"
#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/runner/probe.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline::cli {

namespace {

std::string bytes_label(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

// This host's cached model where there is one (the CPU and memory ceilings beside the
// network's), else a bare one naming the host.
MachineModel model_for_network() {
  std::error_code ec;
  const bool cached = std::filesystem::exists(machine_cache_path(), ec);
  std::string why;
  if (auto m = cached_machine(why)) return *m;
  if (cached)  // a refused or foreign cache: the network alone, and why
    fmt::print(stderr, "ridgeline probe: the cached model is not used: {}\n", visible_line(why));
  const RunContext ctx = current_context();
  MachineModel m;
  m.date = ctx.date;
  m.host = ctx.host_name;
  m.cpu_model = ctx.cpu_model;
  m.ridgeline_version = ctx.version;
  return m;
}

std::vector<std::string> visible_reasons(std::vector<std::string> reasons) {
  std::erase(reasons, "");
  return reasons;
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

}  // namespace

int run_network_probe(const std::string& output, std::int64_t max_bytes) {
  const std::string launcher = launched_by();
  if (launcher.empty())
    throw InputError(
        "--network measures between MPI ranks: run it under a launcher, e.g. `mpirun -np 2 "
        "ridgeline probe --network -o network.json` (one rank per host for the inter-node "
        "ceilings)");
  if (const std::string why = cluster::mpi_off_reason(); !why.empty())
    throw InputError(fmt::format("started by {}, but {}", launcher, why));
  if (output == "-" || output.rfind("/dev/", 0) == 0)
    throw InputError(fmt::format(
        "-o {}: under {} the network's model goes to a file (the table to standard output); "
        "name one",
        escape_visible(output), launcher));
  if (!output.empty()) check_output_file(output);
  cluster::RankWorld world;
  cluster::NetworkProbeOptions options;
  options.max_bytes = max_bytes;
  std::string reason, gpu_reason;
  std::vector<NetworkCeiling> network = cluster::probe_network(world, options, reason);
  MachineModel m;
  if (world.place().rank == 0) {
    m = model_for_network();
    m.network = std::move(network);
    // MPI's ceilings are written before NCCL's are measured: a job that NCCL's failure ends
    // (probe_gpu_network) keeps them, and says so.
    m.network_reason =
        fmt::format("{}", fmt::join(visible_reasons({reason,
                                                     "no GPU ceilings (NCCL): the job ended while "
                                                     "they were measured"}),
                                    "; "));
    if (!output.empty()) write_machine_file(output, m);
  }
  const std::vector<NetworkCeiling> gpus = cluster::probe_gpu_network(world, options, gpu_reason);
  if (world.place().rank != 0) return 0;
  m.network.insert(m.network.end(), gpus.begin(), gpus.end());
  m.network_reason = fmt::format("{}", fmt::join(visible_reasons({reason, gpu_reason}), "; "));
  fmt::print("network between {} ranks on {} host{} ({}):\n", world.place().ranks,
             world.place().nodes, world.place().nodes == 1 ? "" : "s", launcher);
  print_network(m);
  if (!output.empty()) {
    write_machine_file(output, m);
    fmt::print(stderr, "wrote {}\n", escape_visible(output));
  }
  return 0;
}

}  // namespace ridgeline::cli
