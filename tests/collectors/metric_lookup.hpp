#pragma once
// Helpers the collector tests share: a metric by name, and work of known page faults.
#include <sys/mman.h>
#include <unistd.h>

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

// Maps `pages` fresh pages and writes one byte to each: at least `pages` page faults.
inline bool touch_new_pages(std::size_t pages) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* p =
      ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  for (std::size_t i = 0; i < pages; ++i) static_cast<volatile char*>(p)[i * page] = 1;
  ::munmap(p, pages * page);
  return true;
}

}  // namespace ridgeline::testing
