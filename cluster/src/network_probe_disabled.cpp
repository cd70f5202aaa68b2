// probe_network where the build has no MPI: never reached (RankWorld refuses first).
#include "ridgeline/cluster/network_probe.hpp"

namespace ridgeline::cluster {

std::vector<NetworkCeiling> probe_network(const RankWorld&, const NetworkProbeOptions&,
                                          std::string& reason) {
  reason = mpi_off_reason();
  return {};
}

}  // namespace ridgeline::cluster
