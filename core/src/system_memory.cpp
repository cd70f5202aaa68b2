#include "ridgeline/core/system_memory.hpp"

#include <fstream>
#include <string>

namespace ridgeline {

std::uint64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

}  // namespace ridgeline
