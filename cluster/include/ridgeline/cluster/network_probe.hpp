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

// The collectives' sizes: each message size as f32 elements per rank (nccl-tests' size is
// the whole buffer, ranks parts of a whole number of elements, at least one each), each part
// once (1 B and 4 B on 2 ranks are both one element a rank: one size, not two).
std::vector<std::int64_t> collective_parts(const std::vector<std::int64_t>& sizes, int ranks);

// nccl-tests' bus bandwidth over algorithm bandwidth for `pattern` on `ranks` ranks:
// 2(n-1)/n for allreduce, (n-1)/n for allgather, reduce_scatter and alltoall, 1 for point
// to point (latency, bandwidth, bibw).
double bus_factor(std::string_view pattern, int ranks);

// Runs at every rank (every rank must call it); the ceilings come back at rank 0, empty at
// the others. Point to point between rank 0 and the next rank on its host (intra-node) and
// the first rank of the next host (inter-node), where they exist; the collectives over
// every rank (scope inter-node when the job spans hosts). `reason` gets why a scope is
// missing. MPI between host buffers: the ceilings' device is cpu.
std::vector<NetworkCeiling> probe_network(const RankWorld& world,
                                          const NetworkProbeOptions& options, std::string& reason);

// The same patterns between the ranks' GPUs through NCCL (device gpu), each rank on GPU
// local_rank modulo the GPUs it sees. Every rank must call it. Empty, with `reason` saying
// why, where NCCL is not built or not loaded, a rank has no GPU, two ranks share one, or the
// job has one rank.
std::vector<NetworkCeiling> probe_gpu_network(const RankWorld& world,
                                              const NetworkProbeOptions& options,
                                              std::string& reason);

// Why this process cannot measure NCCL's collectives: the build's reason, or libnccl's that
// failed to load or lacks a function (dlerror's text); "" where NCCL is loaded.
std::string nccl_reason();
// The NCCL loaded ("2.28.9"); "" where none is.
std::string nccl_version();

// Where two ranks would use one GPU (`gpu_of_rank`: each rank's host and GPU bus id, in rank
// order), why NCCL refuses the job, naming the ranks and the GPU; "" where each GPU has one
// rank.
std::string shared_gpu_reason(const std::vector<std::string>& gpu_of_rank);

}  // namespace ridgeline::cluster
