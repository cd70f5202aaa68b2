#include <asm/unistd.h>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "ridgeline/collectors/perf_event.hpp"

namespace ridgeline {

const std::vector<PerfEventSpec>& perf_event_catalog() {
  static const std::vector<PerfEventSpec> catalog{
      {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "ns", false},
      {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "events", false},
      {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "events", false},
      {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "events", false},
      {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", true},
      {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", true},
      {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "events", true},
      {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "events", true},
      {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "events", true},
  };
  return catalog;
}

std::optional<PerfEventSpec> find_perf_event(std::string_view name) {
  for (const auto& e : perf_event_catalog())
    if (e.name == name) return e;
  return std::nullopt;
}

std::optional<double> scale_multiplexed(const PerfReading& r, bool& scaled) {
  scaled = false;
  if (r.time_running == 0) return std::nullopt;
  if (r.time_running >= r.time_enabled) return static_cast<double>(r.value);
  scaled = true;
  return static_cast<double>(r.value) * static_cast<double>(r.time_enabled) /
         static_cast<double>(r.time_running);
}

namespace {
std::string paranoid_level() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string level;
  return (in >> level) ? level : "unknown";
}
}  // namespace

std::string explain_perf_error(int err, const PerfEventSpec& e) {
  const std::string call =
      fmt::format("perf_event_open for {} returned {}", e.name,
                  strerrorname_np(err) ? strerrorname_np(err) : std::to_string(err).c_str());
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
      return call + (e.hardware ? ": no hardware PMU for this event, e.g. inside a VM or a "
                                  "container without PMU passthrough"
                                : ": the kernel does not provide this software event");
    case ENODEV:
      return call + ": this CPU's PMU does not support the event";
    case EACCES:
    case EPERM:
      return call + fmt::format(
                        ": not permitted (kernel.perf_event_paranoid = {}; lower it, or grant "
                        "CAP_PERFMON)",
                        paranoid_level());
    case ENOSYS:
      return call + ": the kernel was built without perf events";
    case EMFILE:
      return call + ": too many open files";
    default:
      return call + ": " + std::strerror(err);
  }
}

PerfEventCollector::PerfEventCollector(std::vector<std::string> events)
    : requested_(std::move(events)) {}

PerfEventCollector::~PerfEventCollector() {
  for (int fd : fds_)
    if (fd >= 0) ::close(fd);
}

void PerfEventCollector::open_all() {
  if (opened_) return;
  opened_ = true;
  std::vector<std::string> names = requested_;
  if (names.empty())
    for (const auto& e : perf_event_catalog())
      if (!e.hardware) names.push_back(e.name);
  for (const auto& name : names) {
    auto spec = find_perf_event(name);
    if (!spec) {
      status_.push_back({name, false, fmt::format("unknown perf event '{}'", name)});
      continue;
    }
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = spec->type;
    attr.config = spec->config;
    attr.disabled = 1;
    attr.inherit = 1;  // threads this process starts later are counted too
    attr.exclude_kernel = spec->hardware ? 1 : 0;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    const int fd =
        static_cast<int>(::syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
      status_.push_back({name, false, explain_perf_error(errno, *spec)});
      continue;
    }
    specs_.push_back(*spec);
    fds_.push_back(fd);
    status_.push_back({name, true, ""});
  }
}

Availability PerfEventCollector::probe() {
  open_all();
  // Available when any event opened; the reason still names every event that did not.
  std::string why;
  for (const auto& s : status_)
    if (!s.available) why += (why.empty() ? "" : "; ") + s.reason;
  if (fds_.empty() && why.empty()) why = "no event requested";
  return {!fds_.empty(), why};
}

void PerfEventCollector::start() {
  open_all();
  for (int fd : fds_) {
    ::ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ::ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  }
}

void PerfEventCollector::stop() {
  for (int fd : fds_) ::ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

std::vector<Metric> PerfEventCollector::read() {
  std::vector<Metric> metrics;
  for (std::size_t i = 0; i < fds_.size(); ++i) {
    PerfReading r;
    std::uint64_t buf[3] = {};
    if (::read(fds_[i], buf, sizeof buf) != static_cast<ssize_t>(sizeof buf)) continue;
    r = {buf[0], buf[1], buf[2]};
    bool scaled = false;
    auto value = scale_multiplexed(r, scaled);
    if (!value) continue;
    metrics.push_back({"perf." + specs_[i].name + (scaled ? ".scaled" : ""), *value, specs_[i].unit,
                       MetricSource::counted});
  }
  return metrics;
}

}  // namespace ridgeline
