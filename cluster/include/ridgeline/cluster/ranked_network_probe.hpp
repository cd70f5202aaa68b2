#pragma once
// `ridgeline probe --network` under mpirun or srun: the network's ceilings between ranks,
// on rank 0's machine model (docs/cluster.md).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "ridgeline/core/machine_model.hpp"

namespace ridgeline::cluster {

// The network measured between a job's ranks, on rank 0's host's model.
struct JobNetwork {
  MachineModel model;  // this host's cached model, or a bare one, with the network section
  int ranks = 0, hosts = 0;
};

// Runs at every rank: MPI's ceilings between host buffers, then NCCL's between GPUs, messages
// up to `max_bytes`. At rank 0 the model, nullopt at the other ranks; where `output` is named,
// rank 0 writes MPI's ceilings there before NCCL's are measured (a job that NCCL's failure
// ends keeps them): the whole model is the caller's to write. `say` gets the lines for
// standard error (a cached model that is not used). Refused (InputError) without a launcher
// (`launcher` ""), without MPI in the build, or with `output` a stream or not writable.
std::optional<JobNetwork> measure_job_network(const std::string& launcher,
                                              const std::string& output, std::int64_t max_bytes,
                                              const std::function<void(const std::string&)>& say);

}  // namespace ridgeline::cluster
