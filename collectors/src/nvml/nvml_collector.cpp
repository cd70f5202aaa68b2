#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "ridgeline/collectors/nvml.hpp"
#include "ridgeline/core/shared_library.hpp"

namespace ridgeline {

// The few NVML entry points used, with the C prototypes of nvml.h (NVML's ABI is stable:
// the _v2 names have not changed since CUDA 9).
struct NvmlApi {
  using Device = void*;
  // nvmlFieldValue_t: one field's request and answer (value is a union of 8 bytes).
  struct FieldValue {
    unsigned field_id = 0;
    unsigned scope_id = 0;
    long long timestamp_us = 0;
    long long latency_us = 0;
    int value_type = 0;
    int nvml_return = 0;
    union {
      double d;
      unsigned ui;
      unsigned long ul;
      unsigned long long ull;
      long long sll;
      int si;
      unsigned short us;
    } value{};
  };
  SharedLibrary library;  // never closed: SharedLibrary's rule
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*device_count)(unsigned*) = nullptr;
  int (*device_by_index)(unsigned, Device*) = nullptr;
  int (*device_name)(Device, char*, unsigned) = nullptr;
  int (*power_usage)(Device, unsigned*) = nullptr;              // mW
  int (*total_energy)(Device, unsigned long long*) = nullptr;   // mJ, Volta on
  int (*clock_info)(Device, int, unsigned*) = nullptr;          // MHz
  int (*temperature)(Device, int, unsigned*) = nullptr;         // degrees C
  int (*clock_reasons)(Device, unsigned long long*) = nullptr;  // bit mask
  int (*field_values)(Device, int, FieldValue*) = nullptr;      // R450 on
  std::string error(int rc) const {
    return fmt::format("{} ({})", rc, error_string ? error_string(rc) : "?");
  }
};

namespace {

constexpr int kSuccess = 0;
constexpr int kClockSm = 1, kClockMemory = 2, kSensorGpu = 0;
constexpr unsigned kFieldPowerInstant = 186;  // NVML_FI_DEV_POWER_INSTANT, mW

// A field's value as a double, whatever type the driver chose to answer in.
std::optional<double> field_number(const NvmlApi::FieldValue& f) {
  switch (f.value_type) {
    case 0:
      return f.value.d;
    case 1:
      return f.value.ui;
    case 2:
      return static_cast<double>(f.value.ul);
    case 3:
      return static_cast<double>(f.value.ull);
    case 4:
      return static_cast<double>(f.value.sll);
    case 5:
      return f.value.si;
    case 6:
      return f.value.us;
    default:
      return std::nullopt;
  }
}

template <typename F>
bool resolve(SharedLibrary& lib, F& f, const char* name) {
  f = reinterpret_cast<F>(lib.address(name));
  return f != nullptr;
}

// What an NVML error at init usually means.
std::string init_meaning(int rc) {
  switch (rc) {
    case 9:
      return "the NVIDIA kernel driver is not loaded";
    case 4:
      return "no permission to the GPU device files (/dev/nvidia*)";
    case 12:
      return "NVML found no library functions it needs: driver and library versions differ";
    case 18:
      return "the driver and libnvidia-ml.so.1 versions do not match (reboot after a driver "
             "update)";
    default:
      return "the driver is not usable by this process";
  }
}

}  // namespace

std::string nvml_reason_names(std::uint64_t reasons) {
  static const std::pair<std::uint64_t, const char*> names[] = {
      {0x1, "gpu_idle"},
      {0x2, "applications_clocks_setting"},
      {kNvmlPowerCap, "sw_power_cap"},
      {0x8, "hw_slowdown"},
      {0x10, "sync_boost"},
      {0x20, "sw_thermal_slowdown"},
      {0x40, "hw_thermal_slowdown"},
      {0x80, "hw_power_brake_slowdown"},
      {0x100, "display_clock_setting"}};
  std::string out;
  for (const auto& [bit, name] : names)
    if (reasons & bit) {
      if (!out.empty()) out += ',';
      out += name;
    }
  return out.empty() ? "none" : out;
}

NvmlSummary summarize(const std::vector<NvmlSample>& samples) {
  NvmlSummary s;
  s.samples = samples.size();
  if (samples.empty()) return s;
  s.sm_clock_min_hz = samples.front().sm_clock_hz;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const NvmlSample& x = samples[i];
    s.power_avg_w += x.power_w;
    s.power_max_w = std::max(s.power_max_w, x.power_w);
    s.sm_clock_avg_hz += x.sm_clock_hz;
    s.sm_clock_min_hz = std::min(s.sm_clock_min_hz, x.sm_clock_hz);
    s.memory_clock_avg_hz += x.memory_clock_hz;
    s.temperature_max_c = std::max(s.temperature_max_c, x.temperature_c);
    s.clock_reasons |= x.clock_reasons;
    if (i > 0 && x.power_w != samples[i - 1].power_w) ++s.power_changes;
    if (i > 0)
      s.integrated_energy_j +=
          0.5 * (x.power_w + samples[i - 1].power_w) * (x.seconds - samples[i - 1].seconds);
  }
  const auto n = static_cast<double>(samples.size());
  s.power_avg_w /= n;
  s.sm_clock_avg_hz /= n;
  s.memory_clock_avg_hz /= n;
  s.throttled = (s.clock_reasons & kNvmlThrottleMask) != 0;
  s.power_capped = (s.clock_reasons & kNvmlPowerCap) != 0;
  return s;
}

NvmlCollector::NvmlCollector(std::string library, unsigned device, std::chrono::milliseconds period)
    : library_(std::move(library)), device_index_(device), period_(period) {}

NvmlCollector::~NvmlCollector() {
  if (sampler_.joinable()) {
    sampling_ = false;
    sampler_.join();
  }
  if (api_ && device_) api_->shutdown();
}

Availability NvmlCollector::probe() {
  if (probed_) return *probed_;
  auto api = std::make_unique<NvmlApi>();
  api->library = SharedLibrary::open(library_);
  if (!api->library.loaded())
    return *(probed_ = Availability{
                 false, fmt::format("{}: the NVIDIA driver is not installed (a machine without an "
                                    "NVIDIA GPU)",
                                    api->library.error())});
  const bool ok = resolve(api->library, api->init, "nvmlInit_v2") &&
                  resolve(api->library, api->shutdown, "nvmlShutdown") &&
                  resolve(api->library, api->error_string, "nvmlErrorString") &&
                  resolve(api->library, api->device_count, "nvmlDeviceGetCount_v2") &&
                  resolve(api->library, api->device_by_index, "nvmlDeviceGetHandleByIndex_v2") &&
                  resolve(api->library, api->device_name, "nvmlDeviceGetName") &&
                  resolve(api->library, api->power_usage, "nvmlDeviceGetPowerUsage") &&
                  resolve(api->library, api->clock_info, "nvmlDeviceGetClockInfo") &&
                  resolve(api->library, api->temperature, "nvmlDeviceGetTemperature");
  if (!ok)
    return *(probed_ = Availability{
                 false, fmt::format("{} lacks an NVML function Ridgeline needs ({}): not NVML, or "
                                    "one older than CUDA 9",
                                    library_, api->library.error())});
  // Optional: energy counter (Volta on), instantaneous power and clock reasons (new name
  // first).
  resolve(api->library, api->total_energy, "nvmlDeviceGetTotalEnergyConsumption");
  resolve(api->library, api->field_values, "nvmlDeviceGetFieldValues");
  if (!resolve(api->library, api->clock_reasons, "nvmlDeviceGetCurrentClocksEventReasons"))
    resolve(api->library, api->clock_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (int rc = api->init(); rc != kSuccess)
    return *(probed_ = Availability{false, fmt::format("nvmlInit_v2 returned {}: {}",
                                                       api->error(rc), init_meaning(rc))});
  unsigned count = 0;
  int rc = api->device_count(&count);
  if (rc == kSuccess && device_index_ >= count) rc = -1;
  if (rc == kSuccess) rc = api->device_by_index(device_index_, &device_);
  if (rc != kSuccess) {
    api->shutdown();
    device_ = nullptr;
    return *(probed_ = Availability{
                 false, rc == -1 ? fmt::format("NVML sees {} devices; device {} does not exist",
                                               count, device_index_)
                                 : fmt::format("nvmlDeviceGetHandleByIndex_v2({}) returned {}",
                                               device_index_, api->error(rc))});
  }
  unsigned long long mj = 0;
  has_energy_counter_ = api->total_energy && api->total_energy(device_, &mj) == kSuccess;
  api_ = std::move(api);
  std::string note;
  // nvmlDeviceGetPowerUsage is a one-second average on Ampere and later: 10 ms samples of it
  // describe the last second, not the case. The instant field is what the board reads now.
  if (!api_->field_values) {
    note =
        "; power: nvmlDeviceGetPowerUsage (a one-second average on Ampere and later): this "
        "NVML has no nvmlDeviceGetFieldValues";
  } else if (std::string why = instant_power_reason(); !why.empty()) {
    note = "; power: nvmlDeviceGetPowerUsage (a one-second average on Ampere and later): " + why;
  } else {
    power_instant_ = true;
    note = "; power: NVML_FI_DEV_POWER_INSTANT";
  }
  if (!power_instant_) {
    unsigned mw = 0;
    if (int prc = api_->power_usage(device_, &mw); prc != kSuccess)
      note += fmt::format("; power reading returned {}", api_->error(prc));
  }
  if (!has_energy_counter_) note += "; no energy counter: energy integrated from power samples";
  char name[96] = {};
  api_->device_name(device_, name, sizeof name);
  return *(probed_ = Availability{true, fmt::format("device {}: {}{}", device_index_, name, note)});
}

std::optional<double> NvmlCollector::instant_power_w() const {
  NvmlApi::FieldValue f;
  f.field_id = kFieldPowerInstant;
  if (api_->field_values(device_, 1, &f) != kSuccess || f.nvml_return != kSuccess)
    return std::nullopt;
  const std::optional<double> mw = field_number(f);
  if (!mw) return std::nullopt;
  return 1e-3 * *mw;
}

std::string NvmlCollector::instant_power_reason() const {
  NvmlApi::FieldValue f;
  f.field_id = kFieldPowerInstant;
  if (int rc = api_->field_values(device_, 1, &f); rc != kSuccess)
    return fmt::format("nvmlDeviceGetFieldValues returned {}", api_->error(rc));
  if (f.nvml_return != kSuccess)
    return fmt::format("the driver has no NVML_FI_DEV_POWER_INSTANT ({})",
                       api_->error(f.nvml_return));
  if (!field_number(f))
    return fmt::format("NVML_FI_DEV_POWER_INSTANT came as type {}", f.value_type);
  return {};
}

NvmlSample NvmlCollector::sample_now(std::chrono::steady_clock::time_point t0) const {
  NvmlSample s;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  unsigned v = 0;
  if (power_instant_) {
    if (const std::optional<double> w = instant_power_w()) s.power_w = *w;
  } else if (api_->power_usage(device_, &v) == kSuccess) {
    s.power_w = 1e-3 * v;
  }
  if (api_->clock_info(device_, kClockSm, &v) == kSuccess) s.sm_clock_hz = 1e6 * v;
  if (api_->clock_info(device_, kClockMemory, &v) == kSuccess) s.memory_clock_hz = 1e6 * v;
  if (api_->temperature(device_, kSensorGpu, &v) == kSuccess) s.temperature_c = v;
  unsigned long long reasons = 0;
  if (api_->clock_reasons && api_->clock_reasons(device_, &reasons) == kSuccess)
    s.clock_reasons = reasons;
  return s;
}

void NvmlCollector::start() {
  if (!probe().available) return;
  samples_.clear();
  t0_ = std::chrono::steady_clock::now();
  unsigned long long mj = 0;
  if (has_energy_counter_ && api_->total_energy(device_, &mj) == kSuccess) energy_before_mj_ = mj;
  samples_.push_back(sample_now(t0_));
  sampling_ = true;
  sampler_ = std::thread([this] {
    while (sampling_) {
      std::this_thread::sleep_for(period_);
      if (sampling_) samples_.push_back(sample_now(t0_));
    }
  });
}

void NvmlCollector::stop() {
  if (!api_ || !sampler_.joinable()) return;
  sampling_ = false;
  sampler_.join();
  samples_.push_back(sample_now(t0_));
  t1_ = std::chrono::steady_clock::now();
  unsigned long long mj = 0;
  if (has_energy_counter_ && api_->total_energy(device_, &mj) == kSuccess) energy_after_mj_ = mj;
}

std::vector<Metric> NvmlCollector::read() {
  std::vector<Metric> out;
  if (!api_ || samples_.empty()) return out;
  const NvmlSummary s = summarize(samples_);
  if (has_energy_counter_)
    out.push_back({"energy.gpu", 1e-3 * static_cast<double>(energy_after_mj_ - energy_before_mj_),
                   "J", MetricSource::counted});
  else
    out.push_back({"energy.gpu", s.integrated_energy_j, "J", MetricSource::derived});
  out.push_back({"power.gpu.avg", s.power_avg_w, "W", MetricSource::sampled});
  out.push_back({"power.gpu.max", s.power_max_w, "W", MetricSource::sampled});
  out.push_back({"clock.sm.avg", s.sm_clock_avg_hz, "Hz", MetricSource::sampled});
  out.push_back({"clock.sm.min", s.sm_clock_min_hz, "Hz", MetricSource::sampled});
  out.push_back({"clock.memory.avg", s.memory_clock_avg_hz, "Hz", MetricSource::sampled});
  out.push_back({"temperature.gpu.max", s.temperature_max_c, "C", MetricSource::sampled});
  out.push_back(
      {"gpu.clock_reasons", static_cast<double>(s.clock_reasons), "mask", MetricSource::sampled});
  out.push_back({"gpu.throttled", s.throttled ? 1.0 : 0.0, "bool", MetricSource::sampled});
  out.push_back({"gpu.power_capped", s.power_capped ? 1.0 : 0.0, "bool", MetricSource::sampled});
  out.push_back({"nvml.samples", static_cast<double>(s.samples), "count", MetricSource::sampled});
  // 1: power samples are NVML_FI_DEV_POWER_INSTANT; 0: the one-second average.
  out.push_back({"nvml.power_instant", power_instant_ ? 1.0 : 0.0, "bool", MetricSource::sampled});
  // How often the power reading changed between samples: how fresh the readings really are.
  out.push_back(
      {"nvml.power_changes", static_cast<double>(s.power_changes), "count", MetricSource::sampled});
  return out;
}

}  // namespace ridgeline
