#pragma once
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
};

struct CollectorDescriptor {
  std::string name;
  std::string description;
  std::unique_ptr<Collector> (*factory)();
};

// Every collector built into this binary.
const std::vector<CollectorDescriptor>& collector_registry();

}  // namespace ridgeline
