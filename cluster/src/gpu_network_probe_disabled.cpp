// NCCL's GPU ceilings where the build has no NCCL (cmake/RidgelineNccl.cmake says why).
#include "ridgeline/cluster/network_probe.hpp"

namespace ridgeline::cluster {

std::string nccl_reason() {
  return RIDGELINE_NCCL_OFF_REASON;
}

std::string nccl_version() {
  return "";
}

std::vector<NetworkCeiling> probe_gpu_network(const RankWorld&, const NetworkProbeOptions&,
                                              std::string& reason) {
  reason = "no GPU ceilings (NCCL): " + nccl_reason();
  return {};
}

}  // namespace ridgeline::cluster
