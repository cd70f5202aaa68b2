#pragma once
// `ridgeline probe --network` under mpirun: the network's ceilings between ranks, on one
// host and between hosts, by OSU's and nccl-tests' methods (docs/cluster.md).
#include <cstdint>
#include <string_view>
#include <vector>

#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/machine_model.hpp"

namespace ridgeline::cluster {

struct NetworkProbeOptions {
  std::int64_t min_bytes = 1;
  std::int64_t max_bytes = std::int64_t{64} << 20;  // 64 MiB, as OSU's default range
  int factor = 4;                                   // sizes min, min x factor, ... up to max
  double seconds_per_size = 0.02;                   // timed per size and pattern, at least
};

// The message sizes of a sweep: min_bytes times powers of `factor`, then max_bytes.
std::vector<std::int64_t> message_sizes(const NetworkProbeOptions& options);

// nccl-tests' bus bandwidth over algorithm bandwidth for `pattern` on `ranks` ranks:
// 2(n-1)/n for allreduce, (n-1)/n for allgather, reduce_scatter and alltoall, 1 for point
// to point (latency, bandwidth, bibw).
double bus_factor(std::string_view pattern, int ranks);

// Runs at every rank (every rank must call it); the ceilings come back at rank 0, empty at
// the others. Point to point between rank 0 and the next rank on its host (intra-node) and
// the first rank of the next host (inter-node), where they exist; the collectives over
// every rank (scope inter-node when the job spans hosts). `reason` gets why a scope is
// missing.
std::vector<NetworkCeiling> probe_network(const RankWorld& world,
                                          const NetworkProbeOptions& options, std::string& reason);

}  // namespace ridgeline::cluster
