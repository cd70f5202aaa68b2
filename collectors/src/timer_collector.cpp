#include "ridgeline/collectors/timer_collector.hpp"

namespace ridgeline {

namespace {
double seconds_between(const timespec& a, const timespec& b) {
  return static_cast<double>(b.tv_sec - a.tv_sec) +
         1e-9 * static_cast<double>(b.tv_nsec - a.tv_nsec);
}
}  // namespace

void TimerCollector::start() {
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start_);
  wall_start_ = std::chrono::steady_clock::now();
}

void TimerCollector::stop() {
  wall_stop_ = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_stop_);
}

std::vector<Metric> TimerCollector::read() {
  return {{"wall_time", std::chrono::duration<double>(wall_stop_ - wall_start_).count(), "s",
           MetricSource::timed},
          {"process_cpu_time", seconds_between(cpu_start_, cpu_stop_), "s", MetricSource::timed}};
}

std::unique_ptr<Collector> make_timer_collector() {
  return std::make_unique<TimerCollector>();
}

}  // namespace ridgeline
