#pragma once
// Number formatting shared by the report views.
#include <fmt/format.h>

#include <string>

namespace ridgeline::reports {

inline std::string gflops(double flops_per_s) {
  return fmt::format("{:.2f}", flops_per_s / 1e9);
}
inline std::string gbytes(double bytes_per_s) {
  return fmt::format("{:.1f}", bytes_per_s / 1e9);
}
inline std::string percent(double x) {
  return fmt::format("{:.0f}%", 100 * x);
}
inline std::string intensity(double ai) {
  return ai >= 10 ? fmt::format("{:.1f}", ai) : fmt::format("{:.3g}", ai);
}
// "12.3 GFLOP/s" with an SI prefix fit for the value.
std::string si_rate(double value, const std::string& unit);

}  // namespace ridgeline::reports
