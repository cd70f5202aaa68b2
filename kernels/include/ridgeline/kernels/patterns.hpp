#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// Input data patterns. Data changes dynamic power and, for some libraries and CPUs, speed
// (subnormals); the pattern is part of every case's name. Plain names: normal, uniform,
// constant, zeros, integer, subnormal, sign_random; families: sparseP (P% zeros, P in
// 1..99) and mantissaK (K significand bits kept, K up to the dtype's).
const std::vector<std::string>& known_patterns();  // the names and families, for messages
bool is_known_pattern(const std::string& pattern);
// What the pattern's values are, in words; empty for an unknown pattern.
std::string describe_pattern(const std::string& pattern);
// Whether the pattern means anything for the dtype (subnormal and mantissaK: floating
// types with enough significand bits), or why not.
Support pattern_support(const std::string& pattern, DType dtype);
// Fills `buffer` per `pattern` from a generator seeded with `seed`; std::invalid_argument
// for an unknown pattern or one pattern_support() refuses.
void fill_pattern(OperandBuffer& buffer, const std::string& pattern, std::uint64_t seed);
// Writes NaN everywhere, so an entry a kernel never wrote fails validation.
void poison(OperandBuffer& buffer);
// A case's operands as every case starts: each input and weight filled per `pattern`, each
// from its own seed (seed, seed + 1, ... in the op's operand order), every output poisoned.
void fill_operands(Operands& operands, const std::string& pattern, std::uint64_t seed);

}  // namespace ridgeline
