#pragma once
// A time as people read it, three significant digits in the largest unit under it:
// "1.38 ms", "4.6 µs". The analysis's verdict lines and every printer use this one.
#include <fmt/format.h>

#include <string>

namespace ridgeline {

inline std::string duration_text(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  if (seconds >= 1e-6) return fmt::format("{:.3g} µs", seconds * 1e6);
  return fmt::format("{:.3g} ns", seconds * 1e9);
}

}  // namespace ridgeline
