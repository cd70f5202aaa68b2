#pragma once
// A time as people read it, three significant digits in the largest unit under it:
// "1.38 ms", "4.6 µs"; and any other quantity with an SI prefix: "524 kB", "7.53 GB/s".
// The analysis's verdict lines and every printer use these.
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace ridgeline {

inline std::string duration_text(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  if (seconds >= 1e-6) return fmt::format("{:.3g} µs", seconds * 1e6);
  return fmt::format("{:.3g} ns", seconds * 1e9);
}

inline std::string si_text(double value, const std::string& unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::fabs(value) >= 1000 && i < 5) {
    value /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}", value, prefixes[i], unit);
}

}  // namespace ridgeline
