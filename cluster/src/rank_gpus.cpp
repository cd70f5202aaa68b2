#include <fmt/format.h>

#include <map>

#include "ridgeline/cluster/network_probe.hpp"

namespace ridgeline::cluster {

std::string shared_gpu_reason(const std::vector<std::string>& gpu_of_rank) {
  std::map<std::string, int> first;
  for (int r = 0; r < static_cast<int>(gpu_of_rank.size()); ++r) {
    const auto [it, fresh] = first.emplace(gpu_of_rank[r], r);
    if (!fresh)
      return fmt::format(
          "ranks {} and {} share one GPU ({}), and NCCL runs one rank per GPU: start one rank "
          "per GPU (mpirun --map-by ppr:G:node with G the GPUs of a node)",
          it->second, r, it->first);
  }
  return "";
}

}  // namespace ridgeline::cluster
