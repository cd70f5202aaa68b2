#pragma once
// What the MPI probe (host buffers) and the NCCL probe (GPU buffers) of `probe --network`
// share: who rank 0 measures point to point with, how a pattern is timed, and a ceiling
// made from the time.
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "ridgeline/core/machine_model.hpp"

namespace ridgeline::cluster {

class RankWorld;

// Throws with the call and MPI's code when `code` is not MPI_SUCCESS.
void mpi_ok(int code, const char* call);

// Where point to point runs: rank 0 and `partner`, in `scope`.
struct PointToPoint {
  int partner = -1;
  const char* scope = "";
};
// For rank 0's partners, the next rank on its host (intra-node) and the first rank on
// another host (inter-node), those that exist: `measure` runs at rank 0 and the partner on a
// communicator of the two (rank 0 is its rank 0) while the other ranks wait at a barrier.
// `missing` gets why a scope has no partner. Every rank calls it.
void for_each_pair(const RankWorld& world, std::vector<std::string>& missing,
                   const std::function<void(MPI_Comm pair, const PointToPoint&)>& measure);

// Seconds per call of `op` on `comm`: two untimed calls, one timed to choose the count
// that fills `seconds`, then that many timed after a barrier; the slowest rank's time.
// `settle` runs after the timed calls before the clock is read (a GPU's stream
// synchronised: the calls only enqueue work).
double seconds_per_call(MPI_Comm comm, double seconds, const std::function<void()>& op,
                        const std::function<void()>& settle = {});

// One point of the sweep: `moved` bytes in `seconds`, nccl-tests' bus factor applied.
NetworkCeiling network_ceiling(const char* scope, Device device, const char* pattern, int ranks,
                               std::int64_t bytes, double seconds, double moved,
                               std::string method);

}  // namespace ridgeline::cluster
