#include "ridgeline/cluster/ranked_network_probe.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/runner/probe.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline::cluster {

namespace {

// This host's cached model where there is one (the CPU and memory ceilings beside the
// network's), else a bare one naming the host.
MachineModel model_for_network(const std::function<void(const std::string&)>& say) {
  std::error_code ec;
  const bool cached = std::filesystem::exists(machine_cache_path(), ec);
  std::string why;
  if (auto m = cached_machine(why)) return *m;
  if (cached)  // a refused or foreign cache: the network alone, and why
    say(fmt::format("ridgeline probe: the cached model is not used: {}", visible_line(why)));
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

}  // namespace

std::optional<JobNetwork> measure_job_network(const std::string& launcher,
                                              const std::string& output, std::int64_t max_bytes,
                                              const std::function<void(const std::string&)>& say) {
  if (launcher.empty())
    throw InputError(
        "--network measures between MPI ranks: run it under a launcher, e.g. `mpirun -np 2 "
        "ridgeline probe --network -o network.json` (one rank per host for the inter-node "
        "ceilings)");
  if (const std::string why = mpi_off_reason(); !why.empty())
    throw InputError(fmt::format("started by {}, but {}", launcher, why));
  if (output == "-" || output.rfind("/dev/", 0) == 0)
    throw InputError(fmt::format(
        "-o {}: under {} the network's model goes to a file (the table to standard output); "
        "name one",
        escape_visible(output), launcher));
  if (!output.empty()) check_output_file(output);
  RankWorld world;
  NetworkProbeOptions options;
  options.max_bytes = max_bytes;
  std::string reason, gpu_reason;
  std::vector<NetworkCeiling> network = probe_network(world, options, reason);
  MachineModel m;
  if (world.place().rank == 0) {
    m = model_for_network(say);
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
  const std::vector<NetworkCeiling> gpus = probe_gpu_network(world, options, gpu_reason);
  if (world.place().rank != 0) return std::nullopt;
  m.network.insert(m.network.end(), gpus.begin(), gpus.end());
  m.network_reason = fmt::format("{}", fmt::join(visible_reasons({reason, gpu_reason}), "; "));
  return JobNetwork{std::move(m), world.place().ranks, world.place().nodes};
}

}  // namespace ridgeline::cluster
