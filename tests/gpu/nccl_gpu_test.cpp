// NCCL through the project's loader (cluster/src/nccl_library.hpp) on a real GPU: every call
// `probe --network` makes, on a communicator of one rank, checked for the right sums and
// copies. The probe's ceilings need two ranks, each on its own GPU (scripts/gpu-check's
// nccl step runs them where mpirun and two GPUs are there). Label gpu: skips with the reason
// without a GPU or without libnccl.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

#include "nccl_library.hpp"
#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline::cluster {
namespace {

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call
#define NCCL_OK(call) ASSERT_NO_THROW(RIDGELINE_NCCL(call))

TEST(NcclGpu, EachCallTheProbeMakesComputesOnAOneRankCommunicator) {
  if (!gpu_probe().available()) GTEST_SKIP() << gpu_probe().reason;
  if (!nccl_reason().empty()) GTEST_SKIP() << nccl_reason();
  const NcclApi& api = nccl();
  CUDA_OK(cudaSetDevice(0));
  ncclUniqueId id{};
  ncclComm_t comm = nullptr;
  NCCL_OK(api.ncclGetUniqueId(&id));
  NCCL_OK(api.ncclCommInitRank(&comm, 1, id, 0));
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreate(&stream));
  const std::vector<float> x = {1.5f, -2.0f, 3.25f, 7.0f, 0.5f};  // an odd count
  const std::size_t bytes = x.size() * sizeof(float);
  float *send = nullptr, *recv = nullptr;
  CUDA_OK(cudaMalloc(&send, bytes));
  CUDA_OK(cudaMalloc(&recv, bytes));
  CUDA_OK(cudaMemcpy(send, x.data(), bytes, cudaMemcpyHostToDevice));
  const auto received = [&] {
    std::vector<float> y(x.size(), -1.0f);
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(y.data(), recv, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaMemset(recv, 0, bytes), cudaSuccess);
    return y;
  };
  NCCL_OK(api.ncclAllReduce(send, recv, x.size(), ncclFloat, ncclSum, comm, stream));
  EXPECT_EQ(received(), x);  // one rank's sum is its own buffer
  NCCL_OK(api.ncclAllGather(send, recv, x.size(), ncclFloat, comm, stream));
  EXPECT_EQ(received(), x);
  NCCL_OK(api.ncclReduceScatter(send, recv, x.size(), ncclFloat, ncclSum, comm, stream));
  EXPECT_EQ(received(), x);
  NCCL_OK(api.ncclGroupStart());  // to and from itself, as the alltoall's group does
  NCCL_OK(api.ncclSend(send, bytes, ncclChar, 0, comm, stream));
  NCCL_OK(api.ncclRecv(recv, bytes, ncclChar, 0, comm, stream));
  NCCL_OK(api.ncclGroupEnd());
  EXPECT_EQ(received(), x);
  EXPECT_NE(nccl_version(), "");
  NCCL_OK(api.ncclCommDestroy(comm));
  cudaFree(send);
  cudaFree(recv);
  cudaStreamDestroy(stream);
}

}  // namespace
}  // namespace ridgeline::cluster
