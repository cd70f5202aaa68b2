#pragma once
// The CUPTI and CUDA calls under the range-profiler collector: errors in words, the
// driver's state and context, a device's counter availability, the profiler host object
// and its configuration images. CUDA builds only (collectors/CMakeLists.txt).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_result.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::cupti_detail {

// A CUPTI or CUDA call that failed, in words a user can act on.
struct CuptiFailure {
  std::string what;
};

// Throw CuptiFailure naming the call and what its result usually means.
void check(CUptiResult r, const char* call);
void check_cuda(cudaError_t e, const char* call);

// A CUPTI parameter block: zeroed, with the size CUPTI checks.
template <typename Params>
Params cupti_params(std::size_t size) {
  Params p{};
  p.structSize = size;
  return p;
}

// The driver's current context, through the runtime (linking libcuda directly would keep
// the binary from starting on machines without a driver).
CUcontext current_context();

// Whether this process has called cuInit. Loaded is not enough: libcupti loads libcuda when
// the binary starts, and a driver that is loaded but not initialised survives fork().
bool driver_initialised();

// This device's chip name and counter availability image (where the privilege check
// happens), in a process whose CUDA context is current.
struct DeviceCounters {
  std::string chip;
  std::vector<std::uint8_t> availability;
};
DeviceCounters device_counters(CUcontext ctx, int device);

// A profiler host object for a chip; frees itself.
class HostObject {
 public:
  HostObject(const std::string& chip, const std::uint8_t* availability);
  ~HostObject();
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
  CUpti_Profiler_Host_Object* get() const { return object_; }

  // `names` without the rows of the table this chip lacks (moved to `absent`).
  std::vector<std::string> on_chip(const std::vector<std::string>& names,
                                   std::vector<std::string>& absent) const;
  std::vector<std::uint8_t> config_image(std::vector<const char*> metrics) const;

 private:
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

// The replay passes a configuration image needs per kernel.
std::size_t passes_of(std::vector<std::uint8_t>& image);

// Pointers to the names, which must outlive them.
std::vector<const char*> c_names(const std::vector<std::string>& names);

}  // namespace ridgeline::cupti_detail
