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

// What a perf_event_open errno means for this event, in words a user can act on. `emulated`
// is emulation_reason(): under qemu-user ENOSYS is the emulator's, not the kernel's.
std::string explain_perf_error(int err, const PerfEventSpec& event, const std::string& emulated);

// Reads a group opened with PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING:
// { nr, time_enabled, time_running, value[nr] }. One enabled/running pair for all members:
// the kernel schedules a group on the PMU as a unit. Empty when the buffer is short.
std::vector<PerfReading> parse_group_read(const std::uint64_t* buffer, std::size_t words);

// Counts `events` (all of the catalog's software events when empty) for this process and
// every thread it creates after configure(). Counters open disabled at configure() and
// are enabled between start() and stop(), so threads started in between are counted.
// "a+b+c" is one event group: scheduled together and read in one read(), so ratios between
// its members are taken over the same cycles even when the PMU multiplexes.
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
  std::vector<Uncounted> uncounted(const std::vector<std::string>& requested) override;

  // Each requested event and whether it opened, or why not.
  struct EventStatus {
    std::string event;
    bool available;
    std::string reason;
  };
  const std::vector<EventStatus>& events() const { return status_; }

 private:
  // One perf_event_open group: a lone event, or a leader and its members.
  struct Counter {
    std::vector<PerfEventSpec> specs;
    std::vector<int> fds;  // fds[0] is the leader
    bool grouped() const { return specs.size() > 1; }
  };
  void open_all();
  void open_counter(const std::string& item);
  std::vector<std::string> requested_;
  std::vector<Counter> counters_;
  std::vector<EventStatus> status_;
  bool opened_ = false;
};

}  // namespace ridgeline
