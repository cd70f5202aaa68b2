// Host-only arithmetic, built with or without CUDA so its tests run everywhere.
#include <algorithm>

#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

int rotation_slots(std::int64_t set_bytes, std::int64_t l2_bytes, std::int64_t memory_budget) {
  if (set_bytes <= 0) return 1;
  const std::int64_t wanted = (3 * l2_bytes + set_bytes - 1) / set_bytes;
  const std::int64_t affordable = memory_budget / set_bytes;
  return static_cast<int>(std::clamp<std::int64_t>(std::min(wanted, affordable), 1, 1024));
}

}  // namespace ridgeline
