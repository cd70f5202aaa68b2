#pragma once
#include <chrono>
#include <ctime>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

// Wall time (steady clock) and this process's CPU time over the interval; always available.
class TimerCollector : public Collector {
 public:
  std::string name() const override { return "timer"; }
  Availability probe() override { return {true, ""}; }
  void start() override;
  void stop() override;
  std::vector<Metric> read() override;

 private:
  std::chrono::steady_clock::time_point wall_start_{}, wall_stop_{};
  timespec cpu_start_{}, cpu_stop_{};
};

std::unique_ptr<Collector> make_timer_collector();

}  // namespace ridgeline
