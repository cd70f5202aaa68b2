#pragma once
#include <vector>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

// `mpirun -np N ridgeline run --suite collectives`: the collective ops among the job's ranks
// (as the catalog's collective kernels know them; 1 outside a job, where they say why they
// cannot run). allreduce of 1 KiB, 256 KiB and 16 MiB in f32 and 256 KiB in f64; tp_gemm with
// a 1024 x 1024 x 256 shard on each rank (the GEMM dominates) and a 1024 x 1024 x 16 one (the
// allreduce of its 4 MiB C dominates); one thread per rank.
std::vector<CaseSpec> collectives_suite(const KernelCatalog& catalog, int cpus);

}  // namespace ridgeline
