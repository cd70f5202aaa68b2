#include "number_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "ridgeline/core/error.hpp"

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

MinTime parse_min_time(const std::string& text, const std::string& option) {
  constexpr double kMaxSeconds = 3600;
  constexpr long long kMaxIterations = 1'000'000'000;
  MinTime t;
  if (!text.empty() && text.back() == 'x') {
    const std::optional<double> n = whole_number(text.substr(0, text.size() - 1));
    if (!n || !std::isfinite(*n) || *n < 1 || *n > kMaxIterations || *n != std::floor(*n))
      throw InputError(
          fmt::format("{} {}: an iteration count must be a whole number from 1 to "
                      "{} followed by x (100x)",
                      option, text, kMaxIterations));
    t.iterations = static_cast<long long>(*n);
    return t;
  }
  const std::string number =
      !text.empty() && text.back() == 's' ? text.substr(0, text.size() - 1) : text;
  const std::optional<double> s = whole_number(number);
  if (!s || !std::isfinite(*s) || *s <= 0 || *s > kMaxSeconds)
    throw InputError(
        fmt::format("{} {}: must be seconds above 0 and at most {:g} (0.5 or 0.5s), "
                    "or an iteration count (100x)",
                    option, text, kMaxSeconds));
  t.seconds = *s;
  return t;
}

}  // namespace ridgeline::cli
