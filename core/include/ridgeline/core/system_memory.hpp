#pragma once
#include <cstdint>

namespace ridgeline {

// Memory the OS says is available now (MemAvailable in /proc/meminfo, else sysconf's
// available pages), in bytes; 0 when neither answers. The plan checks every case's buffers
// against it, and kernels that allocate large intermediates (unfused attention's score
// matrix) refuse shapes that would not fit.
std::uint64_t available_memory_bytes();

}  // namespace ridgeline
