#include "ridgeline/collectors/timer_collector.hpp"

namespace ridgeline {

namespace {
double seconds_between(const timespec& a, const timespec& b) {
  return static_cast<double>(b.tv_sec - a.tv_sec) +
         1e-9 * static_cast<double>(b.tv_nsec - a.tv_nsec);
}
}  // namespace

void TimerCollector::start() {
  if (cpu_time_) clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start_);
  wall_start_ = std::chrono::steady_clock::now();
}

void TimerCollector::stop() {
  wall_stop_ = std::chrono::steady_clock::now();
  if (cpu_time_) clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_stop_);
}

std::vector<Metric> TimerCollector::read() {
  std::vector<Metric> out{{"wall_time",
                           std::chrono::duration<double>(wall_stop_ - wall_start_).count(), "s",
                           MetricSource::timed}};
  if (cpu_time_)
    out.push_back(
        {"process_cpu_time", seconds_between(cpu_start_, cpu_stop_), "s", MetricSource::timed});
  return out;
}

std::unique_ptr<Collector> make_timer_collector(bool cpu_time) {
  return std::make_unique<TimerCollector>(cpu_time);
}

}  // namespace ridgeline
