#include <algorithm>

#include "ridgeline/cluster/network_probe.hpp"

namespace ridgeline::cluster {

std::vector<std::int64_t> message_sizes(const NetworkProbeOptions& options) {
  std::vector<std::int64_t> sizes;
  const std::int64_t factor = std::max(2, options.factor);
  for (std::int64_t b = std::max<std::int64_t>(1, options.min_bytes); b < options.max_bytes;
       b *= factor)
    sizes.push_back(b);
  sizes.push_back(std::max<std::int64_t>(1, options.max_bytes));
  return sizes;
}

std::vector<std::int64_t> collective_parts(const std::vector<std::int64_t>& sizes, int ranks) {
  std::vector<std::int64_t> parts;
  for (const std::int64_t size : sizes) {
    const std::int64_t part = std::max<std::int64_t>(1, size / 4 / std::max(1, ranks));
    if (parts.empty() || parts.back() != part) parts.push_back(part);
  }
  return parts;
}

double bus_factor(std::string_view pattern, int ranks) {
  const double n = ranks;
  if (pattern == "allreduce") return 2 * (n - 1) / n;
  if (pattern == "allgather" || pattern == "reduce_scatter" || pattern == "alltoall")
    return (n - 1) / n;
  return 1;
}

}  // namespace ridgeline::cluster
