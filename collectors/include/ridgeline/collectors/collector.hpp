#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ridgeline/core/metric.hpp"

namespace ridgeline {

// Whether a collector can run here, and if not, exactly why.
struct Availability {
  bool available = false;
  std::string reason;
};

// The collector contract (docs/adding-a-collector.md): probe once, then start/stop around
// each timed loop and read its metrics. A collector that cannot run never fails a run.
class Collector {
 public:
  virtual ~Collector() = default;
  virtual std::string name() const = 0;
  virtual Availability probe() = 0;
  virtual void start() = 0;
  virtual void stop() = 0;
  // Metrics of the last start/stop interval, each with its source.
  virtual std::vector<Metric> read() = 0;
  // After probe(): the events asked of this collector that it will not count here, each
  // with the reason. The default: all of `requested` when the collector is unavailable.
  struct Uncounted {
    std::string event;
    std::string reason;
  };
  virtual std::vector<Uncounted> uncounted(const std::vector<std::string>& requested) {
    const Availability a = probe();
    std::vector<Uncounted> out;
    if (!a.available)
      for (const auto& e : requested) out.push_back({e, a.reason});
    return out;
  }
};

struct CollectorDescriptor {
  std::string name;  // the prefix of --collect NAME:EVENT
  std::string description;
  // `events` are what followed NAME: in --collect (empty: the collector's defaults).
  std::unique_ptr<Collector> (*factory)(const std::vector<std::string>& events);
  std::vector<std::string> default_events;  // what a run collects without --collect
  std::vector<std::string> (*known_events)() =
      nullptr;             // for validating --collect; null: takes none
  bool any_event = false;  // events are checked by the library at run time (PAPI names)
  // Only when named in --collect: collecting changes what is measured (CUPTI replays each
  // kernel once per pass, so its timed loops are slower).
  bool opt_in = false;
};

// Every collector built into this binary, in a fixed order, then any added by
// register_collector. A deque: a descriptor found stays valid when one is added.
const std::deque<CollectorDescriptor>& collector_registry();
const CollectorDescriptor* find_collector(const std::string& name);

// Adds a collector after the built-in ones (docs/adding-a-collector.md's worked example is a
// test's own), before any run is planned: cases' child processes inherit it. InputError when
// the name is taken.
void register_collector(CollectorDescriptor descriptor);

// The collectors of one run: each registered collector with the events --collect named for
// it ("perf:page-faults,perf:task-clock,rapl"); collectors not named keep their defaults.
// Throws InputError naming an unknown collector.
std::vector<std::unique_ptr<Collector>> make_collectors(const std::vector<std::string>& collect);

// Every item named explicitly in --collect ("perf:cycles", "papi:PAPI_DP_OPS", "rapl") that
// cannot be counted on this machine, with the reason: the run warns once per item (or
// refuses to start under --strict). Probes the collectors concerned.
struct UncountedItem {
  std::string item;
  std::string reason;
};
std::vector<UncountedItem> uncounted_items(const std::vector<std::string>& collect);

}  // namespace ridgeline
