#pragma once
// Each rank's share of its host: the CPUs it may run on, so that ranks on one host do not
// time each other's cases on the same cores.
#include <filesystem>
#include <vector>

namespace ridgeline::cluster {

// Rank `local_rank` of `local_ranks` on a host whose processes may run on `allowed`: a
// contiguous block of them, the blocks as even as the count allows (the first ranks get one
// more); where ranks outnumber CPUs, one CPU each, in turn (ranks then share CPUs).
std::vector<int> host_share(const std::vector<int>& allowed, int local_rank, int local_ranks);

// The NVIDIA GPUs of this host, from the driver's /proc/driver/nvidia/gpus (one entry each;
// no CUDA call, so nothing is initialised before the ranks choose theirs); 0 without the
// driver. `root` is swapped by tests for a recorded tree.
int nvidia_gpus(const std::filesystem::path& root = "/");

}  // namespace ridgeline::cluster
