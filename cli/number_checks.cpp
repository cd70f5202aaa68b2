#include "number_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace ridgeline::cli {

namespace {
std::optional<double> whole_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}
}  // namespace

CLI::Validator finite_between(double lo, double hi, const std::string& unit, bool lo_open) {
  const std::string range = fmt::format("{} {:g} and {:g}", lo_open ? "above" : "between", lo, hi);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::optional<double> v = whole_number(text);
        const bool ok = v && std::isfinite(*v) && (lo_open ? *v > lo : *v >= lo) && *v <= hi;
        if (ok) return {};
        return lo_open ? fmt::format("'{}' is not a number of {} above {:g} and at most {:g}", text,
                                     unit, lo, hi)
                       : fmt::format("'{}' is not a number of {} between {:g} and {:g}", text, unit,
                                     lo, hi);
      },
      "", range);
}

}  // namespace ridgeline::cli
