#include <asm/unistd.h>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "ridgeline/collectors/perf_event.hpp"
#include "ridgeline/core/emulation.hpp"

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

std::string explain_perf_error(int err, const PerfEventSpec& e, const std::string& emulated) {
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
      if (!emulated.empty())
        return call +
               ": the user-mode emulator that runs this build (qemu-user) does not implement "
               "perf_event_open; on the machine itself the kernel's perf events count";
      return call + ": the kernel was built without perf events";
    case EMFILE:
      return call + ": too many open files";
    default:
      return call + ": " + std::strerror(err);
  }
}

std::vector<PerfReading> parse_group_read(const std::uint64_t* buffer, std::size_t words) {
  if (words < 3 || words < 3 + buffer[0]) return {};
  std::vector<PerfReading> out;
  for (std::uint64_t i = 0; i < buffer[0]; ++i)
    out.push_back({buffer[3 + i], buffer[1], buffer[2]});
  return out;
}

PerfEventCollector::PerfEventCollector(std::vector<std::string> events)
    : requested_(std::move(events)) {}

PerfEventCollector::~PerfEventCollector() {
  for (const auto& c : counters_)
    for (int fd : c.fds) ::close(fd);
}

void PerfEventCollector::open_all() {
  if (opened_) return;
  opened_ = true;
  std::vector<std::string> items = requested_;
  if (items.empty())
    for (const auto& e : perf_event_catalog())
      if (!e.hardware) items.push_back(e.name);
  for (const auto& item : items) open_counter(item);
}

void PerfEventCollector::open_counter(const std::string& item) {
  std::vector<PerfEventSpec> specs;
  for (std::size_t begin = 0;;) {
    const std::size_t plus = item.find('+', begin);
    const std::string name = item.substr(begin, plus - begin);
    auto spec = find_perf_event(name);
    if (!spec) {
      status_.push_back({item, false, fmt::format("unknown perf event '{}'", name)});
      return;
    }
    specs.push_back(*spec);
    if (plus == std::string::npos) break;
    begin = plus + 1;
  }
  const bool group = specs.size() > 1;
  Counter c;
  for (const auto& spec : specs) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = spec.type;
    attr.config = spec.config;
    attr.disabled = c.fds.empty() ? 1 : 0;  // members follow their leader
    attr.inherit = 1;                       // threads this process starts later are counted too
    attr.exclude_kernel = spec.hardware ? 1 : 0;
    attr.exclude_hv = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
                       (group ? PERF_FORMAT_GROUP : 0);
    const int leader = c.fds.empty() ? -1 : c.fds.front();
    const int fd = static_cast<int>(
        ::syscall(__NR_perf_event_open, &attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
      const int err = errno;
      for (int open_fd : c.fds) ::close(open_fd);
      status_.push_back({item, false,
                         explain_perf_error(err, spec, emulation_reason()) +
                             (group ? fmt::format(" (in group {})", item) : std::string())});
      return;
    }
    c.fds.push_back(fd);
    c.specs.push_back(spec);
  }
  counters_.push_back(std::move(c));
  status_.push_back({item, true, ""});
}

Availability PerfEventCollector::probe() {
  open_all();
  // Available when any event opened; the reason still names every event that did not.
  std::string why;
  for (const auto& s : status_)
    if (!s.available) why += (why.empty() ? "" : "; ") + s.reason;
  if (counters_.empty() && why.empty()) why = "no event requested";
  return {!counters_.empty(), why};
}

std::vector<Collector::Uncounted> PerfEventCollector::uncounted(
    const std::vector<std::string>& requested) {
  probe();
  std::vector<Uncounted> out;
  for (const auto& s : status_)
    if (!s.available && (requested.empty() ||
                         std::find(requested.begin(), requested.end(), s.event) != requested.end()))
      out.push_back({s.event, s.reason});
  return out;
}

void PerfEventCollector::start() {
  open_all();
  for (const auto& c : counters_) {
    const unsigned long flag = c.grouped() ? PERF_IOC_FLAG_GROUP : 0;
    ::ioctl(c.fds.front(), PERF_EVENT_IOC_RESET, flag);
    ::ioctl(c.fds.front(), PERF_EVENT_IOC_ENABLE, flag);
  }
}

void PerfEventCollector::stop() {
  for (const auto& c : counters_)
    ::ioctl(c.fds.front(), PERF_EVENT_IOC_DISABLE, c.grouped() ? PERF_IOC_FLAG_GROUP : 0);
}

std::vector<Metric> PerfEventCollector::read() {
  std::vector<Metric> metrics;
  for (const auto& c : counters_) {
    std::vector<PerfReading> readings;
    if (c.grouped()) {
      std::vector<std::uint64_t> buf(3 + c.specs.size());
      const ssize_t n = ::read(c.fds.front(), buf.data(), buf.size() * sizeof(std::uint64_t));
      if (n > 0) readings = parse_group_read(buf.data(), static_cast<std::size_t>(n) / 8);
    } else {
      std::uint64_t buf[3] = {};
      if (::read(c.fds.front(), buf, sizeof buf) == static_cast<ssize_t>(sizeof buf))
        readings.push_back({buf[0], buf[1], buf[2]});
    }
    for (std::size_t i = 0; i < readings.size() && i < c.specs.size(); ++i) {
      bool scaled = false;
      auto value = scale_multiplexed(readings[i], scaled);
      if (!value) continue;
      metrics.push_back({"perf." + c.specs[i].name + (scaled ? ".scaled" : ""), *value,
                         c.specs[i].unit, MetricSource::counted});
    }
  }
  return metrics;
}

}  // namespace ridgeline
