// The network's ceilings between the ranks' GPUs: the MPI probe's patterns
// (network_probe_mpi.cpp) through NCCL, as nccl-tests times them: calls queued back to back
// on one stream, the stream synchronised once, the slowest rank's time.
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "nccl_library.hpp"
#include "network_timing.hpp"
#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline::cluster {

namespace {

void cuda_ok(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw std::runtime_error(fmt::format("{} failed: {}", call, cudaGetErrorString(e)));
}

// This rank's GPU ("host bus-id" names it across the job), or why it has none.
struct RankGpu {
  int device = -1;
  std::string id, why;
};

RankGpu rank_gpu(const RankPlace& place) {
  if (std::string why = nccl_reason(); !why.empty()) return {-1, "", why};
  int count = 0;
  if (std::string why = gpus_in_this_process(count); count == 0) return {-1, "", why};
  const int device = place.local_rank % count;
  char bus[32] = {};
  if (const cudaError_t e = cudaDeviceGetPCIBusId(bus, sizeof bus, device); e != cudaSuccess)
    return {-1, "",
            fmt::format("GPU {}: cudaDeviceGetPCIBusId: {}", device, cudaGetErrorString(e))};
  // The context now (cudaFree(0) makes it), so that a GPU this rank cannot use (exclusive
  // mode, no memory left) is said here, where every rank hears it, not inside a collective.
  for (const cudaError_t e : {cudaSetDevice(device), cudaFree(nullptr)})
    if (e != cudaSuccess)
      return {-1, "", fmt::format("GPU {} ({}): {}", device, bus, cudaGetErrorString(e))};
  return {device, fmt::format("{} {}", place.host, bus), ""};
}

// Why the job cannot run NCCL (every rank gets the same answer), "" where it can.
std::string job_reason(const RankWorld& world, const RankGpu& mine) {
  const std::vector<std::string> all =
      world.all_gather(mine.why.empty() ? "+" + mine.id : "-" + mine.why);
  for (int r = 0; r < static_cast<int>(all.size()); ++r)
    if (all[r][0] == '-') return fmt::format("rank {}: {}", r, all[r].substr(1));
  if (all.size() < 2) return "the job has one rank: NCCL's ceilings need two, each on its own GPU";
  std::vector<std::string> ids;
  for (const std::string& a : all) ids.push_back(a.substr(1));
  return shared_gpu_reason(ids);
}

// A communicator over every rank, on this rank's GPU, with its stream and buffers.
class NcclJob {
 public:
  // On this rank's GPU, already current (rank_gpu).
  NcclJob(const RankPlace& place, std::size_t bytes) {
    try {
      // Rank 0's id goes to every rank with whether it has one, so a failure there is every
      // rank's: none waits in ncclCommInitRank for a rank that gave up.
      struct {
        ncclUniqueId id{};
        ncclResult_t got = ncclSuccess;
      } root;
      if (place.rank == 0) root.got = nccl().ncclGetUniqueId(&root.id);
      mpi_ok(MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
      RIDGELINE_NCCL(root.got);
      RIDGELINE_NCCL(nccl().ncclCommInitRank(&comm_, place.ranks, root.id, place.rank));
      cuda_ok(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
      cuda_ok(cudaMalloc(&send_, bytes), "cudaMalloc");
      cuda_ok(cudaMalloc(&recv_, bytes), "cudaMalloc");
      cuda_ok(cudaMemset(send_, 0, bytes), "cudaMemset");  // f32 zeros: sums stay finite
    } catch (...) {
      abandon();
      throw;
    }
  }
  ~NcclJob() {
    if (stream_) cudaStreamSynchronize(stream_);
    if (comm_) nccl().ncclCommDestroy(comm_);
    release();
  }
  // Where another rank failed: ends the communicator without waiting for the others.
  void abandon() {
    if (comm_) nccl().ncclCommAbort(comm_);
    comm_ = nullptr;
    release();
  }
  NcclJob(const NcclJob&) = delete;
  NcclJob& operator=(const NcclJob&) = delete;

  ncclComm_t comm() const { return comm_; }
  cudaStream_t stream() const { return stream_; }
  char* send() const { return static_cast<char*>(send_); }
  char* recv() const { return static_cast<char*>(recv_); }
  // Until the queued calls are done; an error NCCL meets meanwhile (a peer lost, a link
  // down) is thrown instead of waited on for ever.
  void settle() const {
    for (;;) {
      const cudaError_t e = cudaStreamQuery(stream_);
      if (e == cudaSuccess) return;
      if (e != cudaErrorNotReady) cuda_ok(e, "cudaStreamQuery");
      ncclResult_t async = ncclSuccess;
      RIDGELINE_NCCL(nccl().ncclCommGetAsyncError(comm_, &async));
      nccl_check(async, "a queued NCCL call (ncclCommGetAsyncError)");
    }
  }

 private:
  void release() {
    cudaFree(send_);
    cudaFree(recv_);
    if (stream_) cudaStreamDestroy(stream_);
    send_ = recv_ = nullptr;
    stream_ = nullptr;
  }
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  void* send_ = nullptr;
  void* recv_ = nullptr;
};

// Latency, bandwidth and bibw between this rank and `peer` (rank 0 sends first); `pair` is
// the two ranks' MPI communicator, for the timing's barriers.
void gpu_point_to_point(const NcclJob& job, MPI_Comm pair, int me, int peer, const char* scope,
                        const std::vector<std::int64_t>& sizes, const std::string& version,
                        double seconds, std::vector<NetworkCeiling>& out) {
  const NcclApi& api = nccl();
  const auto settle = [&] { job.settle(); };
  const auto send = [&](std::int64_t n) {
    RIDGELINE_NCCL(api.ncclSend(job.send(), static_cast<std::size_t>(n), ncclChar, peer, job.comm(),
                                job.stream()));
  };
  const auto recv = [&](std::int64_t n) {
    RIDGELINE_NCCL(api.ncclRecv(job.recv(), static_cast<std::size_t>(n), ncclChar, peer, job.comm(),
                                job.stream()));
  };
  for (const std::int64_t bytes : sizes) {
    const double round_trip = seconds_per_call(
        pair, seconds,
        [&] {
          if (me == 0) {
            send(bytes);
            recv(bytes);
          } else {
            recv(bytes);
            send(bytes);
          }
        },
        settle);
    out.push_back(network_ceiling(
        scope, Device::gpu, "latency", 2, bytes, round_trip / 2, static_cast<double>(bytes),
        fmt::format("NCCL {}: ncclSend then ncclRecv back, round trips queued on a stream, "
                    "half of one",
                    version)));
    const double one_way = seconds_per_call(
        pair, seconds, [&] { me == 0 ? send(bytes) : recv(bytes); }, settle);
    out.push_back(network_ceiling(
        scope, Device::gpu, "bandwidth", 2, bytes, one_way, static_cast<double>(bytes),
        fmt::format("NCCL {}: ncclSend to ncclRecv one way, queued on a stream", version)));
    const double both = seconds_per_call(
        pair, seconds,
        [&] {
          RIDGELINE_NCCL(api.ncclGroupStart());
          send(bytes);
          recv(bytes);
          RIDGELINE_NCCL(api.ncclGroupEnd());
        },
        settle);
    out.push_back(network_ceiling(
        scope, Device::gpu, "bibw", 2, bytes, both, 2.0 * static_cast<double>(bytes),
        fmt::format("NCCL {}: ncclSend and ncclRecv both ways in one group", version)));
  }
}

// nccl-tests' four collectives over every rank, f32 elements, sized as the MPI probe's.
void gpu_collectives(const NcclJob& job, int n, const char* scope,
                     const std::vector<std::int64_t>& sizes, const std::string& version,
                     double seconds, std::vector<NetworkCeiling>& out) {
  const NcclApi& api = nccl();
  const auto* send = reinterpret_cast<const float*>(job.send());
  auto* recv = reinterpret_cast<float*>(job.recv());
  for (const std::int64_t each : collective_parts(sizes, n)) {
    const std::size_t part = static_cast<std::size_t>(each);
    const std::size_t whole = part * static_cast<std::size_t>(n);
    const std::int64_t bytes = static_cast<std::int64_t>(whole) * 4;
    const auto time = [&](const char* pattern, const std::function<void()>& op, const char* how) {
      const double s = seconds_per_call(MPI_COMM_WORLD, seconds, op, [&] { job.settle(); });
      out.push_back(network_ceiling(scope, Device::gpu, pattern, n, bytes, s,
                                    static_cast<double>(bytes),
                                    fmt::format("NCCL {}: {}", version, how)));
    };
    time(
        "allreduce",
        [&] {
          RIDGELINE_NCCL(
              api.ncclAllReduce(send, recv, whole, ncclFloat, ncclSum, job.comm(), job.stream()));
        },
        "ncclAllReduce of f32 sums; nccl-tests' size and busbw");
    time(
        "allgather",
        [&] {
          RIDGELINE_NCCL(api.ncclAllGather(send, recv, part, ncclFloat, job.comm(), job.stream()));
        },
        "ncclAllGather, size the gathered buffer; nccl-tests' busbw");
    time(
        "reduce_scatter",
        [&] {
          RIDGELINE_NCCL(api.ncclReduceScatter(send, recv, part, ncclFloat, ncclSum, job.comm(),
                                               job.stream()));
        },
        "ncclReduceScatter of f32 sums, size the input; nccl-tests' busbw");
    time(
        "alltoall",
        [&] {
          RIDGELINE_NCCL(api.ncclGroupStart());
          for (int r = 0; r < n; ++r) {
            RIDGELINE_NCCL(
                api.ncclSend(send + r * part, part, ncclFloat, r, job.comm(), job.stream()));
            RIDGELINE_NCCL(
                api.ncclRecv(recv + r * part, part, ncclFloat, r, job.comm(), job.stream()));
          }
          RIDGELINE_NCCL(api.ncclGroupEnd());
        },
        "ncclSend and ncclRecv of a part to and from each rank in one group (nccl-tests' "
        "alltoall), size each rank's buffer; nccl-tests' busbw");
  }
}

}  // namespace

std::vector<NetworkCeiling> probe_gpu_network(const RankWorld& world,
                                              const NetworkProbeOptions& options,
                                              std::string& reason) {
  const RankPlace& place = world.place();
  const RankGpu gpu = rank_gpu(place);
  if (std::string why = job_reason(world, gpu); !why.empty()) {
    reason = "no GPU ceilings (NCCL): " + why;
    return {};
  }
  const std::vector<std::int64_t> sizes = message_sizes(options);
  const std::string version = nccl_version();
  const std::size_t most = static_cast<std::size_t>(sizes.back()) + 4 * place.ranks;
  std::optional<NcclJob> job;
  std::string failed;
  try {
    job.emplace(place, most);
  } catch (const std::exception& e) {
    failed = e.what();
  }
  // Every rank learns whether every rank has its communicator before any of them uses one.
  const std::vector<std::string> failures = world.all_gather(failed);
  for (int r = 0; r < place.ranks; ++r)
    if (!failures[r].empty()) {
      if (job) job->abandon();
      reason = fmt::format("no GPU ceilings (NCCL): rank {}: {}", r, failures[r]);
      return {};
    }
  std::vector<NetworkCeiling> out;
  std::vector<std::string> missing;  // the MPI probe's reason says it already
  try {
    for_each_pair(world, missing, [&](MPI_Comm pair, const PointToPoint& p) {
      gpu_point_to_point(*job, pair, place.rank == 0 ? 0 : 1, place.rank == 0 ? p.partner : 0,
                         p.scope, sizes, version, options.seconds_per_size, out);
    });
    gpu_collectives(*job, place.ranks, place.nodes > 1 ? "inter-node" : "intra-node", sizes,
                    version, options.seconds_per_size, out);
  } catch (const std::exception& e) {
    // The other ranks wait in a queued NCCL call or an MPI collective for this one, and
    // nothing but ending the job frees them: this rank's kernels stopped (ncclCommAbort),
    // the reason said, the job ended. `-o` already holds MPI's ceilings (measure_job_network).
    job->abandon();
    fmt::print(stderr, "ridgeline: rank {}: NCCL's ceilings failed: {}; ending the job\n",
               place.rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  job.reset();
  if (place.rank != 0) out.clear();
  return out;
}

}  // namespace ridgeline::cluster
