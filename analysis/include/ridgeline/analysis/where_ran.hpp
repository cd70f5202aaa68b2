#pragma once
// Where a case ran, as every report and the dashboard say it: "2 threads", "1 thread", or
// "GPU" (its host thread says nothing of it).
#include <fmt/format.h>

#include <string>

#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

inline std::string where_ran(Device device, int threads) {
  if (device == Device::gpu) return std::string(display_name(device));
  return fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
}

}  // namespace ridgeline
