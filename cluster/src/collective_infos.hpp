#pragma once
// What the collective kernels are, with MPI or without (collective_kernels_*.cpp).
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline::cluster {

inline KernelInfo allreduce_info(int ranks) {
  return {"allreduce",
          "mpi.allreduce",
          Device::cpu,
          {DType::f32, DType::f64},
          false,
          "MPI_Allreduce (MPI_SUM) over every rank of the job",
          KernelRole::vendor,
          "",
          ranks};
}

inline KernelInfo tp_gemm_info(int ranks) {
  return {"tp_gemm",
          "mpi.tp_gemm",
          Device::cpu,
          {DType::f32, DType::f64},
          true,
          "the packed GEMM on this rank's k/ranks shard, then MPI_Allreduce of C in place",
          KernelRole::vendor,
          "",
          ranks};
}

}  // namespace ridgeline::cluster
