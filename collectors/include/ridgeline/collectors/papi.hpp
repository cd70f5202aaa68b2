#pragma once
// PAPI presets and native events by name (e.g. PAPI_DP_OPS, perf::PAGE-FAULTS) in one
// event set on the perf_event component. Built with RIDGELINE_WITH_PAPI; without it the
// collector says which flag enables it.
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

struct PapiComponent {
  std::string name;
  bool disabled = false;
  std::string reason;
};

// The components the installed PAPI was built with, and why each disabled one is off.
std::vector<PapiComponent> papi_components(std::string& error);

std::unique_ptr<Collector> make_papi_collector(const std::vector<std::string>& events);

}  // namespace ridgeline
