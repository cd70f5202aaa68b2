#pragma once
// The GPU side of the kernels module: which CUDA devices this process sees, and the GPU
// kernels added to the catalog. Built with RIDGELINE_WITH_CUDA; without it every call
// answers with the reason and the option that turns it on.
#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline {

class KernelCatalog;

struct GpuDevice {
  int index = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  int cc_major = 0;  // compute capability
  int cc_minor = 0;
  int multiprocessors = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  int memory_bus_bits = 0;
  std::string uuid;
};

struct GpuProbe {
  bool built = false;  // compiled with CUDA
  std::vector<GpuDevice> devices;
  std::string reason;  // why there is no device (empty when there is one)
  bool available() const { return !devices.empty(); }
};

// How many copies of a problem's operands (`set_bytes` each) GPU runs rotate through so
// that a run never finds its inputs in an L2 of `l2_bytes`: enough to span three L2s, at
// most 1024 copies and at most `memory_budget` bytes in all; at least one.
int rotation_slots(std::int64_t set_bytes, std::int64_t l2_bytes, std::int64_t memory_budget);

// Asked once per process (the CUDA runtime initialises then), cached afterwards.
const GpuProbe& gpu_probe();

// The GPU kernels: the f32 SIMT ladder, the tensor-core kernel, cuBLAS and cuBLASLt. Adds
// nothing when built without CUDA.
void add_gpu_kernels(KernelCatalog& catalog);

}  // namespace ridgeline
