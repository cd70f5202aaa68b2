#include "network_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/cluster/rank_world.hpp"

namespace ridgeline::cluster {

namespace {
constexpr int kMaxIterations = 10000;
}

void mpi_ok(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(fmt::format("{} failed ({})", call, code));
}

void for_each_pair(const RankWorld& world, std::vector<std::string>& missing,
                   const std::function<void(MPI_Comm pair, const PointToPoint&)>& measure) {
  const RankPlace& place = world.place();
  std::vector<int> nodes(static_cast<std::size_t>(place.ranks));
  mpi_ok(MPI_Allgather(&place.node, 1, MPI_INT, nodes.data(), 1, MPI_INT, MPI_COMM_WORLD),
         "MPI_Allgather");
  int same = -1, other = -1;
  for (int r = 1; r < place.ranks; ++r) {
    if (nodes[r] == nodes[0] && same < 0) same = r;
    if (nodes[r] != nodes[0] && other < 0) other = r;
  }
  struct Scope {
    PointToPoint p;
    const char* without;  // why there is no partner
  };
  for (const auto& [p, without] : {Scope{{same, "intra-node"}, "no other rank on rank 0's host"},
                                   Scope{{other, "inter-node"}, "every rank on rank 0's host"}}) {
    if (p.partner < 0) {
      missing.push_back(fmt::format("no {} point to point: {}", p.scope, without));
      continue;
    }
    MPI_Comm pair = MPI_COMM_NULL;
    const bool in = place.rank == 0 || place.rank == p.partner;
    mpi_ok(MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, place.rank, &pair),
           "MPI_Comm_split");
    if (in) {
      measure(pair, p);
      MPI_Comm_free(&pair);
    }
    mpi_ok(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  }
}

double seconds_per_call(MPI_Comm comm, double seconds, const std::function<void()>& op,
                        const std::function<void()>& settle) {
  const auto timed = [&](int calls) {
    mpi_ok(MPI_Barrier(comm), "MPI_Barrier");
    const double t = MPI_Wtime();
    for (int i = 0; i < calls; ++i) op();
    if (settle) settle();
    const double mine = (MPI_Wtime() - t) / calls;
    double slowest = 0;
    mpi_ok(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
    return slowest;
  };
  op();
  op();
  if (settle) settle();
  const double one = timed(1);
  return timed(static_cast<int>(
      std::clamp(std::ceil(seconds / std::max(one, 1e-9)), 1.0, double{kMaxIterations})));
}

NetworkCeiling network_ceiling(const char* scope, Device device, const char* pattern, int ranks,
                               std::int64_t bytes, double seconds, double moved,
                               std::string method) {
  NetworkCeiling c;
  c.scope = scope;
  c.device = device;
  c.pattern = pattern;
  c.ranks = ranks;
  c.bytes = bytes;
  c.seconds = seconds;
  c.bytes_per_s = seconds > 0 ? moved / seconds : 0;
  c.bus_bytes_per_s = c.bytes_per_s * bus_factor(pattern, ranks);
  c.method = std::move(method);
  return c;
}

}  // namespace ridgeline::cluster
