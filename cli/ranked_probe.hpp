#pragma once
// `ridgeline probe` under mpirun or srun: every host probed at once, one rank each
// (docs/cluster.md).
#include <string>

#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cli {

// Each host's first rank probes its host (or reads its cache; `force` re-measures) while the
// host's other ranks sleep; rank 0 prints each host's chief ceilings beside the hosts' median
// and, where `output` is named, writes its own host's model there and every other host's
// beside it (machine.json, machine.node-b.json).
int run_ranked_probe(const std::string& output, bool force, const ProbeOptions& probe,
                     const std::string& launcher);

}  // namespace ridgeline::cli
