// The LIKWID library parts: the perfmon collector and the marker API.
#include <fmt/format.h>
#include <likwid.h>
#include <omp.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "ridgeline/collectors/likwid.hpp"

namespace ridgeline {

namespace {

// The CPUs this process may run on: perfmon counts per CPU, so these are the ones whose
// counters cover every thread of the case.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// LIKWID reports unsupported CPUs and missing register access by printing and sometimes
// exiting, so the first contact happens in a child whose output is captured: the reason is
// LIKWID's own ERROR lines.
std::string perfmon_probe_error(const std::vector<int>& cpus, const std::string& events) {
  int fds[2];
  if (::pipe(fds) != 0) return fmt::format("pipe failed: {}", std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    int rc = topology_init();
    if (rc == 0) rc = perfmon_init(static_cast<int>(cpus.size()), cpus.data());
    if (rc == 0) rc = perfmon_addEventSet(events.c_str()) < 0 ? -1 : 0;
    if (rc != 0) fmt::print(stderr, "rc {}\n", rc);
    ::_exit(rc == 0 ? 0 : 1);
  }
  ::close(fds[1]);
  std::string output;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) output.append(buf, n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  std::string errors;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(start, end - start);
    if (line.find("ERROR") != std::string::npos || line.find("rc ") == 0 ||
        line.find("Cannot") != std::string::npos)
      errors += (errors.empty() ? "" : "; ") + line;
    start = end + 1;
  }
  return fmt::format("LIKWID perfmon_init/perfmon_addEventSet({}) failed: {}", events,
                     errors.empty() ? output : errors);
}

class LikwidCollector : public Collector {
 public:
  explicit LikwidCollector(std::vector<std::string> events)
      : events_(events.empty() ? "" : events.front()) {
    for (std::size_t i = 1; i < events.size(); ++i) events_ += "," + events[i];
  }
  ~LikwidCollector() override {
    if (initialised_) {
      perfmon_finalize();
      topology_finalize();
    }
  }
  std::string name() const override { return "likwid"; }

  Availability probe() override {
    if (probed_) return availability_;
    probed_ = true;
    // Not requested: nothing is touched (a probe forks and programs counters).
    if (events_.empty()) return availability_ = {false, "not requested (--collect likwid:GROUP)"};
    cpus_ = allowed_cpus();
    const std::string error = perfmon_probe_error(cpus_, events_);
    if (!error.empty()) return availability_ = {false, error};
    if (topology_init() != 0 || perfmon_init(static_cast<int>(cpus_.size()), cpus_.data()) != 0)
      return availability_ = {false, "LIKWID perfmon_init failed in this process"};
    initialised_ = true;
    group_ = perfmon_addEventSet(events_.c_str());
    if (group_ < 0 || perfmon_setupCounters(group_) != 0)
      return availability_ = {false, fmt::format("LIKWID could not set up {}", events_)};
    return availability_ = {true, fmt::format("counts {} on CPUs {}..{} (all processes on them)",
                                              events_, cpus_.front(), cpus_.back())};
  }
  void start() override {
    if (availability_.available) running_ = perfmon_startCounters() == 0;
  }
  void stop() override {
    if (running_) perfmon_stopCounters();
  }
  std::vector<Metric> read() override {
    std::vector<Metric> out;
    if (!running_) return out;
    running_ = false;
    const int threads = static_cast<int>(cpus_.size());
    for (int e = 0; e < perfmon_getNumberOfEvents(group_); ++e) {
      double sum = 0;
      for (int t = 0; t < threads; ++t) sum += perfmon_getResult(group_, e, t);
      out.push_back({fmt::format("likwid.{}", perfmon_getEventName(group_, e)), sum, "events",
                     MetricSource::counted});
    }
    for (int m = 0; m < perfmon_getNumberOfMetrics(group_); ++m)
      out.push_back({fmt::format("likwid.{}", perfmon_getMetricName(group_, m)),
                     perfmon_getLastMetric(group_, m, 0), "", MetricSource::derived});
    return out;
  }

 private:
  std::string events_;
  std::vector<int> cpus_;
  int group_ = -1;
  bool probed_ = false, initialised_ = false, running_ = false;
  Availability availability_;
};

}  // namespace

std::unique_ptr<Collector> make_likwid_collector(const std::vector<std::string>& events) {
  return std::make_unique<LikwidCollector>(events);
}

void likwid_marker_init() {
  static std::once_flag once;
  if (likwid_marker_active()) std::call_once(once, [] { likwid_markerInit(); });
}

void likwid_marker_start(const std::string& region, int threads) {
  if (!likwid_marker_active()) return;
#pragma omp parallel num_threads(threads)
  likwid_markerStartRegion(region.c_str());
}

void likwid_marker_stop(const std::string& region, int threads) {
  if (!likwid_marker_active()) return;
#pragma omp parallel num_threads(threads)
  likwid_markerStopRegion(region.c_str());
}

void likwid_marker_close() {
  if (likwid_marker_active()) likwid_markerClose();
}

}  // namespace ridgeline
