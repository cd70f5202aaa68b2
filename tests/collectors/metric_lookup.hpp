#pragma once
// The value of the metric named `name` among a collector's readings, if present.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/metric.hpp"

namespace ridgeline::testing {

inline std::optional<double> metric(const std::vector<Metric>& metrics, const std::string& name) {
  for (const auto& m : metrics)
    if (m.name == name) return m.value;
  return std::nullopt;
}

}  // namespace ridgeline::testing
