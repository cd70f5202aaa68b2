#pragma once
// The validations' view of an operand as f32 (rowwise_validation.cpp, attention_validation.cpp):
// the buffer itself, or bf16 elements widened (exactly) into a vector, only those checked.
#include <cstdint>
#include <vector>

#include "ridgeline/core/dtype.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

// Elements [begin, begin + n) of b as f32: a pointer into b (f32), or into `widened`, filled
// with the widened bf16 elements, in which case the pointer returned points at element `begin`.
inline const float* f32_view(const OperandBuffer& b, std::int64_t begin, std::int64_t n,
                             std::vector<float>& widened) {
  if (b.dtype() == DType::f32) return b.as<float>().data() + begin;
  const std::uint16_t* bits = b.as<std::uint16_t>().data() + begin;
  widened.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) widened[static_cast<std::size_t>(i)] = from_bf16(bits[i]);
  return widened.data();
}

}  // namespace ridgeline
