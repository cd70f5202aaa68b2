// Built without CUDA: no GPU kernels, and the probe says how to get them.
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

const GpuProbe& gpu_probe() {
  static const GpuProbe probe{false, {}, "built without CUDA (" RIDGELINE_CUDA_OFF_REASON ")"};
  return probe;
}

std::string gpus_in_this_process(int& count) {
  count = 0;
  return gpu_probe().reason;
}

void add_gpu_kernels(KernelCatalog&) {}

std::vector<GpuCeiling> measure_gpu_ceilings(const std::function<bool(const std::string&)>&,
                                             const std::function<void(const std::string&)>&, double,
                                             int) {
  return {};
}

}  // namespace ridgeline
