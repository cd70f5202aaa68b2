#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cuda_check.hpp"
#include "ridgeline/core/child_process.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

// What an error from the first CUDA call usually means on a machine.
std::string meaning(cudaError_t e) {
  switch (e) {
    case cudaErrorNoDevice:
      return "this machine has no NVIDIA GPU, or none is visible to this process "
             "(CUDA_VISIBLE_DEVICES, a container without the device)";
    case cudaErrorInsufficientDriver:
      return fmt::format(
          "no NVIDIA driver is loaded (libcuda.so.1 missing: a machine without a GPU), or the "
          "driver is older than the CUDA {}.{} runtime Ridgeline was built with",
          CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    case cudaErrorDevicesUnavailable:
      return "every GPU is busy in exclusive-process compute mode";
    default:
      return "the driver or device is not usable by this process";
  }
}

}  // namespace

std::string gpus_in_this_process(int& count) {
  count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    count = 0;
    return fmt::format("cudaGetDeviceCount returned {}: {}", cuda_error_text(e), meaning(e));
  }
  return count == 0 ? "cudaGetDeviceCount found 0 devices: " + meaning(cudaErrorNoDevice) : "";
}

namespace {

GpuProbe run_probe() {
  GpuProbe probe;
  probe.built = true;
  int count = 0;
  if (probe.reason = gpus_in_this_process(count); count == 0) return probe;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaError_t e = cudaGetDeviceProperties(&p, i); e != cudaSuccess) {
      probe.reason = fmt::format("cudaGetDeviceProperties({}) returned {}", i, cuda_error_text(e));
      continue;
    }
    GpuDevice d;
    d.index = i;
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.multiprocessors = p.multiProcessorCount;
    d.memory_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
    d.l2_bytes = p.l2CacheSize;
    d.shared_memory_per_block_optin = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
    d.memory_bus_bits = p.memoryBusWidth;
    for (int b = 0; b < 16; ++b)
      d.uuid += fmt::format("{:02x}", static_cast<unsigned char>(p.uuid.bytes[b]));
    probe.devices.push_back(std::move(d));
  }
  return probe;
}

nlohmann::json to_json(const GpuProbe& p) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : p.devices)
    devices.push_back({{"index", d.index},
                       {"name", d.name},
                       {"cc", {d.cc_major, d.cc_minor}},
                       {"sms", d.multiprocessors},
                       {"memory", d.memory_bytes},
                       {"l2", d.l2_bytes},
                       {"smem_optin", d.shared_memory_per_block_optin},
                       {"bus_bits", d.memory_bus_bits},
                       {"uuid", d.uuid}});
  return {{"devices", devices}, {"reason", p.reason}};
}

GpuProbe from_json(const nlohmann::json& j) {
  GpuProbe p;
  p.built = true;
  p.reason = j.at("reason");
  for (const auto& d : j.at("devices"))
    p.devices.push_back({d.at("index"), d.at("name"), d.at("cc")[0], d.at("cc")[1], d.at("sms"),
                         d.at("memory"), d.at("l2"), d.at("smem_optin"), d.at("bus_bits"),
                         d.at("uuid")});
  return p;
}

// The CUDA runtime does not survive fork(): a parent that initialised it has children
// whose first CUDA call fails. Cases run in forked children, so this process asks in a
// child of its own and stays uninitialised.
GpuProbe probe_in_child() {
  std::string why;
  const auto text = text_from_child([] { return to_json(run_probe()).dump(); }, why);
  try {
    if (text) return from_json(nlohmann::json::parse(*text));
    why = "the CUDA device query failed: " + why;
  } catch (const std::exception& e) {
    why = std::string("the CUDA device query returned nothing readable: ") + e.what();
  }
  GpuProbe p;
  p.built = true;
  p.reason = why;
  return p;
}

}  // namespace

const GpuProbe& gpu_probe() {
  static const GpuProbe probe = probe_in_child();
  return probe;
}

}  // namespace ridgeline
