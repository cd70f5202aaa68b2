#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// Input data patterns. Data changes dynamic power and, for some libraries, speed; the
// pattern is part of every case's name.
const std::vector<std::string>& known_patterns();
bool is_known_pattern(const std::string& pattern);
// Fills `buffer` per `pattern` from a generator seeded with `seed`.
void fill_pattern(OperandBuffer& buffer, const std::string& pattern, std::uint64_t seed);
// Writes NaN everywhere, so an entry a kernel never wrote fails validation.
void poison(OperandBuffer& buffer);

}  // namespace ridgeline
