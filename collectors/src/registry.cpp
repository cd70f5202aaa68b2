#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/timer_collector.hpp"

namespace ridgeline {

const std::vector<CollectorDescriptor>& collector_registry() {
  static const std::vector<CollectorDescriptor> registry{
      {"timer", "wall-clock and process CPU time around each timed loop", &make_timer_collector},
  };
  return registry;
}

}  // namespace ridgeline
