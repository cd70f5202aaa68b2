#include "ridgeline/cluster/rank_world.hpp"

namespace ridgeline::cluster {

std::string mpi_launcher(EnvironmentLookup lookup) {
  // Each sets its variables in every process it starts, before main(); srun also sets the
  // step's SLURM_STEP_ID beside the PMI its --mpi plugin serves.
  if (lookup("OMPI_COMM_WORLD_SIZE")) return "Open MPI's mpirun";
  const bool srun = lookup("SLURM_STEP_ID") != nullptr;
  if (lookup("PMIX_RANK")) return srun ? "Slurm's srun (PMIx)" : "PMIx";
  if (lookup("PMI_RANK") || lookup("PMI_SIZE")) return srun ? "Slurm's srun (PMI-2)" : "PMI";
  return "";
}

int launcher_rank(EnvironmentLookup lookup) {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = lookup(name)) return std::atoi(value);
  return 0;
}

}  // namespace ridgeline::cluster
