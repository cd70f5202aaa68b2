#include "ridgeline/cluster/host_share.hpp"

#include <cstddef>

namespace ridgeline::cluster {

std::vector<int> host_share(const std::vector<int>& allowed, int local_rank, int local_ranks) {
  const auto cpus = static_cast<int>(allowed.size());
  if (cpus == 0 || local_ranks <= 0 || local_rank < 0 || local_rank >= local_ranks) return allowed;
  if (local_ranks >= cpus) return {allowed[static_cast<std::size_t>(local_rank % cpus)]};
  const int base = cpus / local_ranks, extra = cpus % local_ranks;
  // Ranks below `extra` take base + 1 CPUs, the others base.
  const int first = local_rank * base + (local_rank < extra ? local_rank : extra);
  const int count = base + (local_rank < extra ? 1 : 0);
  return {allowed.begin() + first, allowed.begin() + first + count};
}

int nvidia_gpus(const std::filesystem::path& root) {
  std::error_code ec;
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(root / "proc/driver/nvidia/gpus", ec))
    n += e.is_directory(ec);
  return n;
}

}  // namespace ridgeline::cluster
