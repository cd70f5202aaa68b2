#pragma once
#include <chrono>
#include <ctime>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

// Wall time (steady clock, served from the vDSO) over the interval, and with `cpu_time`
// this process's CPU time too (two clock_gettime system calls, about a microsecond in a
// VM: hence opt-in, --collect timer:cpu). Always available.
class TimerCollector : public Collector {
 public:
  explicit TimerCollector(bool cpu_time = false) : cpu_time_(cpu_time) {}
  std::string name() const override { return "timer"; }
  Availability probe() override { return {true, ""}; }
  void start() override;
  void stop() override;
  std::vector<Metric> read() override;

 private:
  std::chrono::steady_clock::time_point wall_start_{}, wall_stop_{};
  timespec cpu_start_{}, cpu_stop_{};
  bool cpu_time_;
};

std::unique_ptr<Collector> make_timer_collector(bool cpu_time = false);

}  // namespace ridgeline
