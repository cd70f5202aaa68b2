#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

namespace {
constexpr std::pair<CacheSizeDecision, const char*> kDecisions[] = {
    {CacheSizeDecision::confirmed, "confirmed"},
    {CacheSizeDecision::inconclusive, "inconclusive"},
    {CacheSizeDecision::replaced, "replaced"},
    {CacheSizeDecision::extra, "extra"},
    {CacheSizeDecision::memory, "memory"}};
}  // namespace

std::string to_string(CacheSizeDecision d) {
  for (const auto& [value, text] : kDecisions)
    if (value == d) return text;
  return "?";
}

std::optional<CacheSizeDecision> cache_size_decision_from(const std::string& text) {
  for (const auto& [value, spelling] : kDecisions)
    if (text == spelling) return value;
  return std::nullopt;
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
