// The cache sizes the kernels block for, from the machine model (probe.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

CacheSizes cache_sizes_for_kernels(const MachineModel& machine, const CacheSizes& reported) {
  CacheSizes s = reported;
  std::vector<std::string> replaced;
  for (auto [level, bytes] : {std::pair<MemoryLevel, std::int64_t*>{MemoryLevel::l1, &s.l1d},
                              {MemoryLevel::l2, &s.l2},
                              {MemoryLevel::l3, &s.l3}}) {
    const std::int64_t used = cache_bytes_for_placement(machine, level);
    if (used <= 0 || used == *bytes) continue;
    replaced.push_back(
        fmt::format("{} {} KiB (hwloc {} KiB)", display_name(level), used >> 10, *bytes >> 10));
    *bytes = used;
  }
  if (!replaced.empty())
    s.source =
        fmt::format("{}; measured by the probe, which replaced hwloc's on repeated evidence: {}",
                    reported.source, fmt::join(replaced, ", "));
  return s;
}

}  // namespace ridgeline
