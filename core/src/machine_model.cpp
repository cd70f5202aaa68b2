#include "ridgeline/core/machine_model.hpp"

#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {
constexpr Spelling<CacheSizeDecision> kDecisions[] = {
    {CacheSizeDecision::confirmed, "confirmed", {}},
    {CacheSizeDecision::inconclusive, "inconclusive", {}},
    {CacheSizeDecision::replaced, "replaced", {}},
    {CacheSizeDecision::extra, "extra", {}},
    {CacheSizeDecision::memory, "memory", {}}};
static_assert(spelled_in_order(kDecisions, CacheSizeDecision::memory));
}  // namespace

std::string to_string(CacheSizeDecision d) {
  return std::string(spelling_of(kDecisions, d).json);
}

std::optional<CacheSizeDecision> cache_size_decision_from(const std::string& text) {
  return value_of<CacheSizeDecision>(kDecisions, text);
}

std::int64_t cache_bytes_for_placement(const MachineModel& m, MemoryLevel level) {
  const std::int64_t reported = level == MemoryLevel::l1   ? m.l1d_bytes
                                : level == MemoryLevel::l2 ? m.l2_bytes
                                : level == MemoryLevel::l3 ? m.l3_bytes
                                                           : 0;
  for (const MeasuredLevel& l : m.levels)
    if (parse_memory_level(l.name) == level && l.kernel == "read" && l.threads == 1 &&
        l.capacity_bytes > 0 && (reported <= 0 || l.disagrees))
      return l.capacity_bytes;
  return reported;
}

}  // namespace ridgeline
