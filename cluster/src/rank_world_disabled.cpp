// RankWorld where the build has no MPI: says why, and how to turn it on.
#include <stdexcept>

#include "ridgeline/cluster/rank_world.hpp"

namespace ridgeline::cluster {

struct RankWorld::Mpi {};

std::string mpi_off_reason() {
  return "this build has no MPI: " RIDGELINE_MPI_OFF_REASON;
}

RankWorld::RankWorld() {
  throw std::runtime_error(mpi_off_reason());
}

RankWorld::~RankWorld() = default;

std::vector<std::string> RankWorld::all_gather(const std::string& mine) const {
  return {mine};
}

void RankWorld::tell_progress() const {}

std::optional<std::vector<std::optional<std::string>>> RankWorld::gather_at_root(
    const std::string& mine, const std::function<bool()>&, Silence) const {
  return std::vector<std::optional<std::string>>{mine};
}

void RankWorld::host_barrier() const {}

int RankWorld::max_over_ranks(int value) const {
  return value;
}

}  // namespace ridgeline::cluster
