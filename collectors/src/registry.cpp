#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/cupti.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/collectors/nvml.hpp"
#include "ridgeline/collectors/papi.hpp"
#include "ridgeline/collectors/perf_event.hpp"
#include "ridgeline/collectors/powercap.hpp"
#include "ridgeline/collectors/timer_collector.hpp"
#include "ridgeline/core/error.hpp"

namespace ridgeline {

namespace {
std::unique_ptr<Collector> timer(const std::vector<std::string>& events) {
  bool cpu = false;
  for (const auto& e : events) cpu = cpu || e == "cpu";
  return make_timer_collector(cpu);
}
std::vector<std::string> timer_events() {
  return {"wall", "cpu"};
}
std::unique_ptr<Collector> perf(const std::vector<std::string>& events) {
  return std::make_unique<PerfEventCollector>(events);
}
std::unique_ptr<Collector> rapl(const std::vector<std::string>&) {
  return std::make_unique<PowercapCollector>();
}
std::unique_ptr<Collector> nvml(const std::vector<std::string>&) {
  return std::make_unique<NvmlCollector>();
}
std::unique_ptr<Collector> cupti(const std::vector<std::string>& events) {
  return make_cupti_collector(events);
}
std::unique_ptr<Collector> likwid(const std::vector<std::string>& events) {
  return make_likwid_collector(events);
}
std::unique_ptr<Collector> papi(const std::vector<std::string>& events) {
  return make_papi_collector(events);
}
std::vector<std::string> perf_events() {
  std::vector<std::string> names;
  for (const auto& e : perf_event_catalog()) names.push_back(e.name);
  return names;
}
}  // namespace

static std::deque<CollectorDescriptor>& registry_storage() {
  static std::deque<CollectorDescriptor> registry{
      {"timer",
       "wall-clock time around each timed loop; timer:cpu adds the process's CPU time",
       &timer,
       {},
       &timer_events},
      {"perf",
       "Linux perf_event counters (software everywhere, hardware where a PMU exists)",
       &perf,
       {"task-clock", "page-faults", "context-switches", "cpu-migrations"},
       &perf_events},
      {"rapl", "RAPL energy per domain through /sys/class/powercap", &rapl, {}},
      {"nvml",
       "NVIDIA GPU 0 through NVML (libnvidia-ml.so.1, loaded at run time): energy, power, SM "
       "and memory clocks, temperature and throttle reasons sampled every 10 ms",
       &nvml,
       {}},
      {"cupti",
       "NVIDIA GPU counters through CUPTI's range profiler: FLOPs per precision (SIMT and "
       "tensor), HBM/L2/L1 bytes, cycles; cupti:METRIC adds a raw metric",
       &cupti,
       {},
       nullptr,
       true,
       true},
      {"papi",
       "PAPI presets and native events by name (papi:PAPI_DP_OPS, papi:perf::PAGE-FAULTS)",
       &papi,
       {},
       nullptr,
       true},
      {"likwid",
       "LIKWID perfmon: a LIKWID group or event string on this process's CPUs "
       "(likwid:FLOPS_DP); marker regions per case under likwid-perfctr -m",
       &likwid,
       {},
       nullptr,
       true},
  };
  return registry;
}

const std::deque<CollectorDescriptor>& collector_registry() {
  return registry_storage();
}

void register_collector(CollectorDescriptor descriptor) {
  if (find_collector(descriptor.name))
    throw InputError(fmt::format("a collector named '{}' is registered already", descriptor.name));
  registry_storage().push_back(std::move(descriptor));
}

const CollectorDescriptor* find_collector(const std::string& name) {
  for (const auto& d : collector_registry())
    if (d.name == name) return &d;
  return nullptr;
}

std::vector<std::unique_ptr<Collector>> make_collectors(const std::vector<std::string>& collect) {
  std::map<std::string, std::vector<std::string>> events;
  for (const auto& item : collect) {
    const auto colon = item.find(':');
    const std::string name = item.substr(0, colon);
    if (!find_collector(name)) {
      std::string known;
      for (const auto& d : collector_registry()) known += (known.empty() ? "" : ", ") + d.name;
      throw InputError(
          fmt::format("--collect {}: unknown collector '{}' (known: {})", item, name, known));
    }
    auto& list = events[name];
    if (colon == std::string::npos) continue;
    const std::string event = item.substr(colon + 1);
    const CollectorDescriptor* d = find_collector(name);
    std::vector<std::string> known =
        d->known_events ? d->known_events() : std::vector<std::string>{};
    // "a+b" asks for an event group: each member must be known.
    bool all_known = true;
    for (std::size_t begin = 0;;) {
      const std::size_t plus = event.find('+', begin);
      const std::string part = event.substr(begin, plus - begin);
      all_known = all_known && std::find(known.begin(), known.end(), part) != known.end();
      if (plus == std::string::npos) break;
      begin = plus + 1;
    }
    if (!d->any_event && !all_known) {
      std::string list_text;
      for (const auto& k : known) list_text += (list_text.empty() ? "" : ", ") + k;
      throw InputError(
          fmt::format("--collect {}: {} has no event '{}'{}", item, name, event,
                      known.empty() ? " (it takes no events)" : " (known: " + list_text + ")"));
    }
    list.push_back(event);
  }
  std::vector<std::unique_ptr<Collector>> out;
  for (const auto& d : collector_registry()) {
    auto it = events.find(d.name);
    if (d.opt_in && it == events.end()) continue;
    out.push_back(
        d.factory(it != events.end() && !it->second.empty() ? it->second : d.default_events));
  }
  return out;
}

std::vector<UncountedItem> uncounted_items(const std::vector<std::string>& collect) {
  std::map<std::string, std::vector<std::string>> asked;  // collector -> events ("" alone)
  for (const auto& item : collect) {
    const auto colon = item.find(':');
    asked[item.substr(0, colon)].push_back(colon == std::string::npos ? ""
                                                                      : item.substr(colon + 1));
  }
  std::vector<UncountedItem> out;
  for (const auto& [name, events] : asked) {
    std::vector<std::string> named;
    for (const auto& e : events)
      if (!e.empty()) named.push_back(e);
    const CollectorDescriptor* d = find_collector(name);
    if (!d) continue;  // make_collectors names it
    auto collector = d->factory(named);
    for (const auto& u : collector->uncounted(named.empty() ? std::vector<std::string>{""} : named))
      out.push_back({u.event.empty() ? name : name + ":" + u.event, u.reason});
  }
  return out;
}

}  // namespace ridgeline
