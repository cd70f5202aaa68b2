#pragma once
// `ridgeline probe --network` under mpirun or srun: the network's ceilings between ranks,
// on rank 0's machine model (docs/cluster.md).
#include <cstdint>
#include <string>

namespace ridgeline::cli {

// Runs at every rank; rank 0 prints the ceilings and writes `output` (if named): this
// host's cached model, or a bare one, with the network section. Refused (exit 2) without a
// launcher.
int run_network_probe(const std::string& output, std::int64_t max_bytes);

}  // namespace ridgeline::cli
