#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace ridgeline {

// Where a number came from. Every number Ridgeline reports carries one.
enum class MetricSource {
  counted,   // a hardware or software counter
  timed,     // a clock around the measured call
  analytic,  // the kernel's work model
  derived,   // computed from other metrics
  sampled,   // a series sampled during the run (power, clocks)
};

std::string_view to_string(MetricSource source);
std::optional<MetricSource> parse_metric_source(std::string_view text);

struct Metric {
  std::string name;
  double value = 0;
  std::string unit;
  MetricSource source = MetricSource::analytic;
  bool operator==(const Metric&) const = default;
};

}  // namespace ridgeline
