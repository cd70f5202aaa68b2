#include "ridgeline/cluster/ranked_probe.hpp"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/visible_text.hpp"

namespace ridgeline::cluster {

std::string host_model_file(const std::string& output, const std::string& host) {
  const std::filesystem::path named(output);
  std::string safe;
  for (char c : host) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return (named.parent_path() / (named.stem().string() + "." + safe + named.extension().string()))
      .string();
}

std::optional<std::vector<MachineModel>> probe_every_host(
    const std::string& launcher, const std::string& output, bool force, const ProbeOptions& probe,
    const std::function<void(const std::string& line)>& line) {
  if (const std::string why = mpi_off_reason(); !why.empty())
    throw InputError(fmt::format("started by {}, but {}: each process would probe its host at once",
                                 launcher, why));
  if (!output.empty()) check_output_file(output);
  RankWorld world;
  const RankPlace& place = world.place();
  std::string mine;  // this host's model, from its first rank
  if (place.local_rank == 0) {
    CacheOutcome outcome{};
    const MachineModel m = cached_or_probed_machine(
        force, probe,
        [&](const std::string& probe_line) {
          line(fmt::format("{}: {}", escape_visible(place.host), probe_line));
        },
        outcome);
    mine = to_json(m).dump();
  }
  world.host_barrier();  // the host's other ranks sleep until its probe is done
  const std::vector<std::string> all = world.all_gather(mine);
  if (place.rank != 0) return std::nullopt;
  std::vector<MachineModel> hosts;
  for (std::size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty())
      hosts.push_back(
          machine_from_json(nlohmann::json::parse(all[r]), fmt::format("rank {}'s model", r), ""));
  return hosts;
}

}  // namespace ridgeline::cluster
