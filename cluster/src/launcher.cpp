#include "ridgeline/cluster/rank_world.hpp"

namespace ridgeline::cluster {

std::string mpi_launcher(EnvironmentLookup lookup) {
  // Each sets its variables in every process it starts, before main().
  if (lookup("OMPI_COMM_WORLD_SIZE")) return "Open MPI's mpirun";
  if (lookup("PMIX_RANK")) return "PMIx";
  if (lookup("PMI_RANK") || lookup("PMI_SIZE")) return "PMI (srun)";
  return "";
}

}  // namespace ridgeline::cluster
