#include "cupti_driver.hpp"

#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <set>

#include "ridgeline/collectors/cupti.hpp"

namespace ridgeline::cupti_detail {

namespace {

std::string cupti_text(CUptiResult r) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  return fmt::format("{} ({})", static_cast<int>(r), s ? s : "?");
}

// What a CUPTI error usually means for a user.
std::string cupti_meaning(CUptiResult r) {
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return "ERR_NVGPUCTRPERM: the driver lets only administrators read GPU counters; run as "
             "root or load nvidia with NVreg_RestrictProfilingToAdminUsers=0";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
      return "a virtual GPU (vGPU) without profiling enabled";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      return "crypto-mining processors have no profiler";
    case CUPTI_ERROR_NOT_SUPPORTED:
      return "the device or its configuration (MIG, confidential computing, WSL) does not support "
             "the range profiler";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "another profiler (Nsight Compute, Nsight Systems, DCGM) holds the counters";
    default:
      return "see the CUPTI documentation for this code";
  }
}

}  // namespace

void check(CUptiResult r, const char* call) {
  if (r != CUPTI_SUCCESS)
    throw CuptiFailure{fmt::format("{} returned {}: {}", call, cupti_text(r), cupti_meaning(r))};
}

void check_cuda(cudaError_t e, const char* call) {
  if (e == cudaSuccess) return;
  const char* meaning = e == cudaErrorInsufficientDriver
                            ? ": no NVIDIA driver is loaded (a machine without a GPU) or it is "
                              "older than this CUDA runtime"
                        : e == cudaErrorNoDevice ? ": no GPU is visible to this process"
                                                 : "";
  throw CuptiFailure{fmt::format("{} returned {} ({}){}", call, cudaGetErrorName(e),
                                 cudaGetErrorString(e), meaning)};
}

CUcontext current_context() {
  using GetCurrent = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  check_cuda(
      cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &status),
      "cudaGetDriverEntryPointByVersion(cuCtxGetCurrent)");
  if (!fn || status != cudaDriverEntryPointSuccess)
    throw CuptiFailure{"the driver has no cuCtxGetCurrent"};
  CUcontext ctx = nullptr;
  reinterpret_cast<GetCurrent>(fn)(&ctx);
  return ctx;
}

// Every driver call but a few answers CUDA_ERROR_NOT_INITIALIZED before cuInit without
// initialising.
bool driver_initialised() {
  void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!driver) return false;
  using GetCurrent = CUresult (*)(CUcontext*);
  auto fn = reinterpret_cast<GetCurrent>(::dlsym(driver, "cuCtxGetCurrent"));
  CUcontext ctx = nullptr;
  const bool initialised = fn && fn(&ctx) != CUDA_ERROR_NOT_INITIALIZED;
  ::dlclose(driver);
  return initialised;
}

DeviceCounters device_counters(CUcontext ctx, int device) {
  auto init =
      cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  auto chip =
      cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  auto avail = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx;
  check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
  DeviceCounters d{chip.pChipName, std::vector<std::uint8_t>(avail.counterAvailabilityImageSize)};
  avail.pCounterAvailabilityImage = d.availability.data();
  check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
  return d;
}

HostObject::HostObject(const std::string& chip, const std::uint8_t* availability) {
  auto p = cupti_params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = availability;
  check(cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
  object_ = p.pHostObject;
}
HostObject::~HostObject() {
  auto p = cupti_params<CUpti_Profiler_Host_Deinitialize_Params>(
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  p.pHostObject = object_;
  cuptiProfilerHostDeinitialize(&p);
}
std::vector<std::string> HostObject::on_chip(const std::vector<std::string>& names,
                                             std::vector<std::string>& absent) const {
  std::set<std::string> base;
  for (int type = 0; type < CUPTI_METRIC_TYPE__COUNT; ++type) {
    auto p = cupti_params<CUpti_Profiler_Host_GetBaseMetrics_Params>(
        CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
    p.pHostObject = object_;
    p.metricType = static_cast<CUpti_MetricType>(type);
    check(cuptiProfilerHostGetBaseMetrics(&p), "cuptiProfilerHostGetBaseMetrics");
    for (std::size_t i = 0; i < p.numMetrics; ++i) base.insert(p.ppMetricNames[i]);
  }
  std::set<std::string> table;
  for (const auto& row : cupti_metric_table()) table.insert(row.metric);
  std::vector<std::string> kept;
  for (const auto& n : names) {
    const std::string stem = n.substr(0, n.find('.'));
    if (table.count(n) && !base.count(stem))
      absent.push_back(n);
    else
      kept.push_back(n);  // a user's unknown metric stays, and fails with CUPTI's reason
  }
  return kept;
}

std::vector<std::uint8_t> HostObject::config_image(std::vector<const char*> metrics) const {
  auto add = cupti_params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = object_;
  add.ppMetricNames = metrics.data();
  add.numMetrics = metrics.size();
  check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  auto size = cupti_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = object_;
  check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  std::vector<std::uint8_t> image(size.configImageSize);
  auto get = cupti_params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  get.pHostObject = object_;
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  check(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
  return image;
}

std::size_t passes_of(std::vector<std::uint8_t>& image) {
  auto p = cupti_params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  p.configImageSize = image.size();
  p.pConfigImage = image.data();
  check(cuptiProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses");
  return p.numOfPasses;
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  for (const auto& n : names) out.push_back(n.c_str());
  return out;
}

}  // namespace ridgeline::cupti_detail
