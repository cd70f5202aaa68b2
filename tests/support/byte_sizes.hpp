// Binary byte sizes for the tests' working sets and cache capacities.
#pragma once

#include <cstdint>

namespace ridgeline::test {

inline constexpr std::int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

}  // namespace ridgeline::test
