#pragma once
// Linux perf_event counters through the system call: software events (task-clock, page
// faults, context switches) work everywhere, hardware events (cycles, instructions...)
// only where the kernel exposes a PMU.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

struct PerfEventSpec {
  std::string name;  // "task-clock", "cycles", ...
  std::uint32_t type;
  std::uint64_t config;
  std::string unit;  // "ns", "events", "cycles", ...
  bool hardware;     // needs a PMU
};

const std::vector<PerfEventSpec>& perf_event_catalog();
std::optional<PerfEventSpec> find_perf_event(std::string_view name);

// One read of a counter opened with PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING.
struct PerfReading {
  std::uint64_t value = 0;
  std::uint64_t time_enabled = 0;
  std::uint64_t time_running = 0;
};

// A counter the kernel multiplexed (ran for part of the time it was enabled) is scaled
// by enabled/running; `scaled` says so. A counter that never ran gives nullopt.
std::optional<double> scale_multiplexed(const PerfReading& reading, bool& scaled);

// What a perf_event_open errno means for this event, in words a user can act on.
std::string explain_perf_error(int err, const PerfEventSpec& event);

// Counts `events` (all of the catalog's software events when empty) for this process and
// every thread it creates after configure(). Counters open disabled at configure() and
// are enabled between start() and stop(), so threads started in between are counted.
class PerfEventCollector : public Collector {
 public:
  explicit PerfEventCollector(std::vector<std::string> events = {});
  ~PerfEventCollector() override;
  PerfEventCollector(const PerfEventCollector&) = delete;
  PerfEventCollector& operator=(const PerfEventCollector&) = delete;

  std::string name() const override { return "perf"; }
  Availability probe() override;
  void start() override;
  void stop() override;
  std::vector<Metric> read() override;

  // Each requested event and whether it opened, or why not.
  struct EventStatus {
    std::string event;
    bool available;
    std::string reason;
  };
  const std::vector<EventStatus>& events() const { return status_; }

 private:
  void open_all();
  std::vector<std::string> requested_;
  std::vector<PerfEventSpec> specs_;
  std::vector<int> fds_;
  std::vector<EventStatus> status_;
  bool opened_ = false;
};

}  // namespace ridgeline
