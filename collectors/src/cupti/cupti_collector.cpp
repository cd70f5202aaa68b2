// The CUPTI range-profiler collector. Range profiling initialises the CUDA driver, which
// does not survive fork(): probe() asks in a child process (unless this process already
// holds the driver), and the profiling itself
// happens only in the process that runs the kernels (a case's child).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cupti_driver.hpp"
#include "ridgeline/collectors/cupti.hpp"
#include "ridgeline/core/child_process.hpp"

namespace ridgeline {

namespace {

using namespace cupti_detail;

// The probe, run in a child: device 0's context, the privilege check and a configuration
// of every metric.
nlohmann::json probe_here(const std::vector<std::string>& metrics) {
  try {
    int count = 0;
    check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    check_cuda(cudaSetDevice(0), "cudaSetDevice(0)");
    check_cuda(cudaFree(nullptr), "cudaFree(0) (creating the context)");
    DeviceCounters d = device_counters(current_context(), 0);
    HostObject host(d.chip, d.availability.data());
    std::vector<std::string> absent;
    const std::vector<std::string> kept = host.on_chip(metrics, absent);
    std::vector<std::uint8_t> image = host.config_image(c_names(kept));
    std::string not_here;
    for (const auto& a : absent) not_here += (not_here.empty() ? "" : ", ") + a;
    return {{"ok", true},
            {"reason", fmt::format("{}: {} metrics in {} replay passes per kernel{}", d.chip,
                                   kept.size(), passes_of(image),
                                   absent.empty() ? "" : "; not on this chip: " + not_here)}};
  } catch (const CuptiFailure& f) {
    return {{"ok", false}, {"reason", f.what}};
  }
}

constexpr std::size_t kMaxRanges = 2048;

class CuptiCollector final : public Collector {
 public:
  explicit CuptiCollector(std::vector<std::string> extra)
      : metrics_(cupti_metric_names(extra)), extra_(std::move(extra)) {}
  ~CuptiCollector() override {
    if (profiler_) {
      auto p = cupti_params<CUpti_RangeProfiler_Disable_Params>(
          CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = profiler_;
      cuptiRangeProfilerDisable(&p);
    }
  }
  std::string name() const override { return "cupti"; }

  Availability probe() override {
    // One probe per process and metric list; a case's child inherits its parent's answer.
    static std::map<std::vector<std::string>, Availability> cache;
    if (auto it = cache.find(metrics_); it != cache.end()) return it->second;
    std::string why;
    // A process that already initialised the CUDA driver cannot ask a forked child (CUDA does
    // not survive fork: the child's cudaSetDevice fails), and has nothing left to protect: ask
    // here. One that has not must stay so, or every case's child would fail.
    std::optional<std::string> text;
    if (driver_initialised()) {
      text = probe_here(metrics_).dump();
    } else {
      text = text_from_child([this] { return probe_here(metrics_).dump(); }, why);
    }
    Availability a;
    if (!text) {
      a = {false, "the CUPTI probe failed: " + why};
    } else {
      const auto j = nlohmann::json::parse(*text);
      a = {j.at("ok").get<bool>(),
           j.at("reason").get<std::string>() +
               (j.at("ok").get<bool>() ? "; kernels are replayed once per pass while counted, so "
                                         "time cases without cupti"
                                       : "")};
    }
    return cache[metrics_] = a;
  }

  void start() override {
    error_.clear();
    values_.clear();
    try {
      if (!profiler_) enable();
      auto init = cupti_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
          CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
      init.pRangeProfilerObject = profiler_;
      init.counterDataSize = counter_data_.size();
      init.pCounterData = counter_data_.data();
      check(cuptiRangeProfilerCounterDataImageInitialize(&init),
            "cuptiRangeProfilerCounterDataImageInitialize");
      auto config = cupti_params<CUpti_RangeProfiler_SetConfig_Params>(
          CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
      config.pRangeProfilerObject = profiler_;
      config.configSize = config_.size();
      config.pConfig = config_.data();
      config.counterDataImageSize = counter_data_.size();
      config.pCounterDataImage = counter_data_.data();
      config.range = CUPTI_AutoRange;
      config.replayMode = CUPTI_KernelReplay;
      config.maxRangesPerPass = kMaxRanges;
      config.numNestingLevels = 1;
      config.minNestingLevel = 1;
      config.passIndex = 0;
      config.targetNestingLevel = 1;
      check(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");
      auto st = cupti_params<CUpti_RangeProfiler_Start_Params>(
          CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
      st.pRangeProfilerObject = profiler_;
      check(cuptiRangeProfilerStart(&st), "cuptiRangeProfilerStart");
      started_ = true;
    } catch (const CuptiFailure& f) {
      error_ = f.what;
    }
  }

  void stop() override {
    if (!started_) return;
    started_ = false;
    try {
      check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      auto sp = cupti_params<CUpti_RangeProfiler_Stop_Params>(
          CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      sp.pRangeProfilerObject = profiler_;
      check(cuptiRangeProfilerStop(&sp), "cuptiRangeProfilerStop");
      auto decode = cupti_params<CUpti_RangeProfiler_DecodeData_Params>(
          CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
      decode.pRangeProfilerObject = profiler_;
      check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
      dropped_ = decode.numOfRangeDropped;
      auto info = cupti_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
          CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
      info.pCounterDataImage = counter_data_.data();
      info.counterDataImageSize = counter_data_.size();
      check(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
      ranges_ = info.numTotalRanges;
      std::vector<const char*> names = c_names(metrics_);
      std::vector<double> v(names.size());
      for (std::size_t r = 0; r < ranges_; ++r) {
        auto e = cupti_params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        e.pHostObject = host_->get();
        e.pCounterDataImage = counter_data_.data();
        e.counterDataImageSize = counter_data_.size();
        e.rangeIndex = r;
        e.ppMetricNames = names.data();
        e.numMetrics = names.size();
        e.pMetricValues = v.data();
        check(cuptiProfilerHostEvaluateToGpuValues(&e), "cuptiProfilerHostEvaluateToGpuValues");
        for (std::size_t i = 0; i < names.size(); ++i) values_[metrics_[i]] += v[i];
      }
    } catch (const CuptiFailure& f) {
      error_ = f.what;
    }
  }

  std::vector<Metric> read() override {
    std::vector<Metric> out;
    if (!error_.empty() || values_.empty()) return out;
    out = cupti_to_ridgeline(values_);
    if (dropped_ > 0)  // a partial total must not stand for the loop's: keep it apart
      for (auto& m : out)
        if (m.name.rfind("cupti.", 0) != 0) m.name = "cupti.partial." + m.name;
    out.push_back({"cupti.ranges", static_cast<double>(ranges_), "kernel", MetricSource::counted});
    out.push_back(
        {"cupti.ranges_dropped", static_cast<double>(dropped_), "kernel", MetricSource::counted});
    return out;
  }

 private:
  void enable() {
    const CUcontext ctx = current_context();
    if (!ctx) throw CuptiFailure{"no CUDA context is current: no GPU kernel ran before counting"};
    int device = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    DeviceCounters d = device_counters(ctx, device);
    host_ = std::make_unique<HostObject>(d.chip, d.availability.data());
    std::vector<std::string> absent;
    metrics_ = host_->on_chip(metrics_, absent);
    config_ = host_->config_image(c_names(metrics_));
    auto en = cupti_params<CUpti_RangeProfiler_Enable_Params>(
        CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    en.ctx = ctx;
    check(cuptiRangeProfilerEnable(&en), "cuptiRangeProfilerEnable");
    profiler_ = en.pRangeProfilerObject;
    std::vector<const char*> names = c_names(metrics_);
    auto size = cupti_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pRangeProfilerObject = profiler_;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = kMaxRanges;
    size.maxNumRangeTreeNodes = kMaxRanges;
    check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    counter_data_.resize(size.counterDataSize);
  }

  std::vector<std::string> metrics_;
  std::vector<std::string> extra_;
  std::unique_ptr<HostObject> host_;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;
  std::vector<std::uint8_t> config_;
  std::vector<std::uint8_t> counter_data_;
  std::map<std::string, double> values_;
  std::size_t ranges_ = 0, dropped_ = 0;
  bool started_ = false;
  std::string error_;
};

}  // namespace

CuptiConfigCheck check_cupti_config(const std::string& chip,
                                    const std::vector<std::string>& metrics) {
  CuptiConfigCheck c;
  try {
    HostObject host(chip, nullptr);
    std::vector<std::uint8_t> image = host.config_image(c_names(host.on_chip(metrics, c.absent)));
    c.passes = passes_of(image);
    c.config_bytes = image.size();
    c.ok = true;
  } catch (const CuptiFailure& f) {
    c.reason = f.what;
  }
  return c;
}

std::unique_ptr<Collector> make_cupti_collector(const std::vector<std::string>& events) {
  return std::make_unique<CuptiCollector>(events);
}

}  // namespace ridgeline
