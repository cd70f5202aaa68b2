#pragma once
// The collective ops' kernels (core/src/op_definitions/allreduce.cpp, tp_gemm.cpp): MPI between the
// job's ranks. Every rank runs each case at the same time, in its own process, with a count
// of calls the ranks agree on (KernelInfo::ranks, Kernel::fixed_iterations); each notes the
// scope it ran in ("intra-node" when every rank is on one host, else "inter-node"), which
// places its network bytes under that scope's roof.
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline::cluster {

class RankWorld;

// mpi.allreduce (MPI_Allreduce) and mpi.tp_gemm (the packed GEMM on this rank's shard, then
// MPI_Allreduce of C in place). Without `world` (not under a launcher), or in a build without
// MPI, they are listed and say why they cannot run.
void add_collective_kernels(KernelCatalog& catalog, const RankWorld* world);

}  // namespace ridgeline::cluster
