#pragma once
// A byte count as the placement's notes write it: "24 KiB", "1.5 MiB", "2.25 GiB".
#include <fmt/format.h>

#include <string>

namespace ridgeline {

inline std::string human_bytes(double b) {
  if (b >= 1 << 30) return fmt::format("{:.4g} GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt::format("{:.1f} MiB", b / (1 << 20));
  return fmt::format("{:.0f} KiB", b / 1024);
}

}  // namespace ridgeline
