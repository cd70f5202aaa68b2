#pragma once
// `ridgeline probe` and `probe --network` under mpirun or srun: the job is the cluster
// module's (ridgeline/cluster/ranked_probe.hpp, ranked_network_probe.hpp); here what rank 0
// prints and writes of it.
#include <cstdint>
#include <string>

#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cli {

// Every host probed at once, one rank each; rank 0 prints each host's chief ceilings beside
// the hosts' median and, where `output` is named, writes its own host's model there and every
// other host's beside it (machine.json, machine.node-b.json).
int run_ranked_probe(const std::string& output, bool force, const ProbeOptions& probe,
                     const std::string& launcher);

// The network's ceilings between the ranks; rank 0 prints them and writes `output` (if
// named). Refused (exit 2) without a launcher (`launcher` "").
int run_network_probe(const std::string& output, std::int64_t max_bytes,
                      const std::string& launcher);

}  // namespace ridgeline::cli
