#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

std::int64_t cache_bytes_for_placement(const MachineModel& m, const std::string& level) {
  const std::int64_t reported = level == "L1"   ? m.l1d_bytes
                                : level == "L2" ? m.l2_bytes
                                : level == "L3" ? m.l3_bytes
                                                : 0;
  for (const MeasuredLevel& l : m.levels)
    if (l.name == level && l.kernel == "read" && l.threads == 1 && l.capacity_bytes > 0 &&
        (reported <= 0 || l.disagrees))
      return l.capacity_bytes;
  return reported;
}

}  // namespace ridgeline
