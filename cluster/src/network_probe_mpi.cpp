// The network's ceilings on MPI: point to point as OSU's micro-benchmarks measure it
// (osu_latency, osu_bw, osu_bibw), the collectives with nccl-tests' sizes and bus bandwidth.
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>

#include "network_timing.hpp"
#include "ridgeline/cluster/network_probe.hpp"

namespace ridgeline::cluster {

namespace {

constexpr int kWindow = 64;                     // OSU's messages in flight (bw, bibw)
constexpr std::int64_t kWindowBytes = 4 << 20;  // ...fewer above 64 KiB: 4 MiB a window
int window_for(std::int64_t bytes) {
  return static_cast<int>(std::clamp<std::int64_t>(kWindowBytes / bytes, 1, kWindow));
}

NetworkCeiling ceiling(const char* scope, const char* pattern, int ranks, std::int64_t bytes,
                       double seconds, double moved, std::string method) {
  return network_ceiling(scope, Device::cpu, pattern, ranks, bytes, seconds, moved,
                         std::move(method));
}

// Latency, bandwidth and bibw between the two ranks of `pair` (rank 0 of it sends first).
void point_to_point(MPI_Comm pair, const char* scope, const std::vector<std::int64_t>& sizes,
                    double seconds, std::vector<NetworkCeiling>& out) {
  int me = 0;
  mpi_ok(MPI_Comm_rank(pair, &me), "MPI_Comm_rank");
  const int peer = 1 - me;
  std::vector<char> send(static_cast<std::size_t>(sizes.back()), 'a'),
      recv(static_cast<std::size_t>(sizes.back()));
  std::vector<MPI_Request> requests(2 * kWindow);
  char ack = 0;
  for (const std::int64_t bytes : sizes) {
    const int n = static_cast<int>(bytes), window = window_for(bytes);
    const double round_trip = seconds_per_call(pair, seconds, [&] {
      if (me == 0) {
        MPI_Send(send.data(), n, MPI_CHAR, peer, 1, pair);
        MPI_Recv(recv.data(), n, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(recv.data(), n, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE);
        MPI_Send(send.data(), n, MPI_CHAR, peer, 1, pair);
      }
    });
    out.push_back(ceiling(scope, "latency", 2, bytes, round_trip / 2, static_cast<double>(bytes),
                          "osu_latency: round trips of one message, half the time"));
    const double streamed = seconds_per_call(pair, seconds, [&] {
      for (int w = 0; w < window; ++w)
        if (me == 0)
          MPI_Isend(send.data(), n, MPI_CHAR, peer, 2, pair, &requests[w]);
        else
          MPI_Irecv(recv.data(), n, MPI_CHAR, peer, 2, pair, &requests[w]);
      MPI_Waitall(window, requests.data(), MPI_STATUSES_IGNORE);
      if (me == 0)
        MPI_Recv(&ack, 1, MPI_CHAR, peer, 3, pair, MPI_STATUS_IGNORE);
      else
        MPI_Send(&ack, 1, MPI_CHAR, peer, 3, pair);
    });
    out.push_back(
        ceiling(scope, "bandwidth", 2, bytes, streamed / window, static_cast<double>(bytes),
                fmt::format("osu_bw: windows of {} messages one way, then an ack", window)));
    const double both = seconds_per_call(pair, seconds, [&] {
      for (int w = 0; w < window; ++w) {
        MPI_Irecv(recv.data(), n, MPI_CHAR, peer, 4, pair, &requests[w]);
        MPI_Isend(send.data(), n, MPI_CHAR, peer, 4, pair, &requests[window + w]);
      }
      MPI_Waitall(2 * window, requests.data(), MPI_STATUSES_IGNORE);
    });
    out.push_back(ceiling(scope, "bibw", 2, bytes, both / window, 2.0 * static_cast<double>(bytes),
                          fmt::format("osu_bibw: windows of {} messages both ways", window)));
  }
}

// The four collectives a training job lives on, over every rank of `comm`, f32 elements.
void collectives(MPI_Comm comm, const char* scope, const std::vector<std::int64_t>& sizes,
                 double seconds, std::vector<NetworkCeiling>& out) {
  int n = 0;
  mpi_ok(MPI_Comm_size(comm, &n), "MPI_Comm_size");
  const std::size_t most = static_cast<std::size_t>(sizes.back() / 4 + n);
  std::vector<float> send(most, 1.0f), recv(most);
  // nccl-tests' size: the whole buffer (allreduce's, allgather's output, reduce_scatter's
  // input, alltoall's).
  for (const std::int64_t each : collective_parts(sizes, n)) {
    const int part = static_cast<int>(each);
    const int whole = part * n;
    const std::int64_t bytes = std::int64_t{whole} * 4;
    const auto time = [&](const char* pattern, const std::function<void()>& op, const char* how) {
      const double s = seconds_per_call(comm, seconds, op);
      out.push_back(ceiling(scope, pattern, n, bytes, s, static_cast<double>(bytes), how));
    };
    time(
        "allreduce",
        [&] { MPI_Allreduce(send.data(), recv.data(), whole, MPI_FLOAT, MPI_SUM, comm); },
        "MPI_Allreduce of f32 sums; nccl-tests' size and busbw");
    time(
        "allgather",
        [&] { MPI_Allgather(send.data(), part, MPI_FLOAT, recv.data(), part, MPI_FLOAT, comm); },
        "MPI_Allgather, size the gathered buffer; nccl-tests' busbw");
    time(
        "reduce_scatter",
        [&] { MPI_Reduce_scatter_block(send.data(), recv.data(), part, MPI_FLOAT, MPI_SUM, comm); },
        "MPI_Reduce_scatter_block of f32 sums, size the input; nccl-tests' busbw");
    time(
        "alltoall",
        [&] { MPI_Alltoall(send.data(), part, MPI_FLOAT, recv.data(), part, MPI_FLOAT, comm); },
        "MPI_Alltoall, size each rank's buffer (a part to each rank); nccl-tests' busbw");
  }
}

}  // namespace

std::vector<NetworkCeiling> probe_network(const RankWorld& world,
                                          const NetworkProbeOptions& options, std::string& reason) {
  const RankPlace& place = world.place();
  const std::vector<std::int64_t> sizes = message_sizes(options);
  std::vector<NetworkCeiling> out;
  std::vector<std::string> missing;
  for_each_pair(world, missing, [&](MPI_Comm pair, const PointToPoint& p) {
    point_to_point(pair, p.scope, sizes, options.seconds_per_size, out);
  });
  if (place.ranks >= 2)
    collectives(MPI_COMM_WORLD, place.nodes > 1 ? "inter-node" : "intra-node", sizes,
                options.seconds_per_size, out);
  else
    missing.push_back("no collectives: the job has one rank");
  reason = fmt::format("{}", fmt::join(missing, "; "));
  if (place.rank != 0) out.clear();
  return out;
}

}  // namespace ridgeline::cluster
