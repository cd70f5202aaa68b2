#pragma once
// NVIDIA GPU power, energy, clocks, temperature and throttle reasons through NVML, loaded
// at run time (libnvidia-ml.so.1 comes with the driver; no header or stub is needed to
// build). A background thread samples while a timed loop runs.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

// One reading of the device.
struct NvmlSample {
  double seconds = 0;  // since start()
  double power_w = 0;  // board power: instantaneous where NVML has the field, else the 1 s mean
  double sm_clock_hz = 0;
  double memory_clock_hz = 0;
  double temperature_c = 0;
  std::uint64_t clock_reasons = 0;  // nvmlClocksEventReason* bits
};

// Reasons that mean the clocks were held below what the load asked for: software power
// cap, hardware slowdown, thermal (software and hardware) and power-brake slowdowns.
inline constexpr std::uint64_t kNvmlThrottleMask = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
// nvmlClocksEventReasonSwPowerCap: the board's power limit held the clocks.
inline constexpr std::uint64_t kNvmlPowerCap = 0x4;
// Names of the set bits of a reasons mask ("sw_power_cap,hw_thermal_slowdown").
std::string nvml_reason_names(std::uint64_t reasons);

// Summaries of a series: averages (W, Hz), peaks, the OR of all reasons, and energy from
// the trapezoid rule over the samples (J), used where the device has no energy counter.
struct NvmlSummary {
  std::size_t samples = 0;
  double power_avg_w = 0, power_max_w = 0;
  double sm_clock_avg_hz = 0, sm_clock_min_hz = 0;
  double memory_clock_avg_hz = 0;
  double temperature_max_c = 0;
  std::uint64_t clock_reasons = 0;
  std::size_t power_changes = 0;  // samples whose power differs from the one before
  bool throttled = false;
  bool power_capped = false;  // kNvmlPowerCap among the reasons: the rate is the cap's
  double integrated_energy_j = 0;
};
NvmlSummary summarize(const std::vector<NvmlSample>& samples);

struct NvmlApi;  // the functions resolved from the library

class NvmlCollector : public Collector {
 public:
  // `library`: the file dlopen() loads; `device`: the NVML device index; `period`: time
  // between samples.
  explicit NvmlCollector(std::string library = "libnvidia-ml.so.1", unsigned device = 0,
                         std::chrono::milliseconds period = std::chrono::milliseconds(10));
  ~NvmlCollector() override;
  std::string name() const override { return "nvml"; }
  Availability probe() override;
  void start() override;
  void stop() override;
  std::vector<Metric> read() override;

 private:
  NvmlSample sample_now(std::chrono::steady_clock::time_point t0) const;
  std::optional<double> instant_power_w() const;  // W, NVML_FI_DEV_POWER_INSTANT
  std::string instant_power_reason() const;       // why it cannot be read; empty if it can

  std::string library_;
  unsigned device_index_;
  std::chrono::milliseconds period_;
  std::unique_ptr<NvmlApi> api_;
  void* device_ = nullptr;
  std::optional<Availability> probed_;
  bool has_energy_counter_ = false;
  bool power_instant_ = false;  // samples read NVML_FI_DEV_POWER_INSTANT, not the 1 s average
  std::uint64_t energy_before_mj_ = 0, energy_after_mj_ = 0;
  std::chrono::steady_clock::time_point t0_{}, t1_{};
  std::vector<NvmlSample> samples_;
  std::atomic<bool> sampling_{false};
  std::thread sampler_;
};

}  // namespace ridgeline
