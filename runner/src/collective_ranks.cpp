#include "collective_ranks.hpp"

#include <fmt/format.h>

namespace ridgeline {

CollectiveLeft::CollectiveLeft(CaseResult r)
    : std::runtime_error(r.error_message), result(std::move(r)) {}

std::vector<CaseResult> CollectiveRanks::stopped_elsewhere(const std::string& what) const {
  return {untimed_result(
      spec_, Disposition::skipped,
      fmt::format("not timed: {} on another rank of the job (a collective's ranks time it "
                  "together or not at all)",
                  what),
      &kernel_.info())};
}

std::vector<CaseResult> CollectiveRanks::crashed(const std::string& why) const {
  if (kernel_.info().ranks <= 0)
    return {untimed_result(spec_, Disposition::crashed, why, &kernel_.info())};
  throw CollectiveLeft(untimed_result(
      spec_, Disposition::crashed,
      fmt::format("{} (part-way through a collective, whose other ranks wait inside it: this "
                  "rank ended the job)",
                  why),
      &kernel_.info()));
}

}  // namespace ridgeline
