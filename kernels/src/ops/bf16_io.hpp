#pragma once
// bf16 operands for the f32 bodies that take an IO policy (kDirect false: the operands are not
// floats to use in place): runs widened into f32 buffers and narrowed back with an ISA's
// conversions B (Bf16x16 in bf16_avx512.hpp, Bf16x4 in bf16_neon.hpp, included first by the
// unit), single elements read by a shift (bf16 is the top half of an f32: exact, and cheap
// enough for the attention's K and V packs) and written rounded to nearest even. Used by the
// unfused row-wise passes (rowwise_unfused_body.hpp, in kTile runs) and the fused attention
// (attention_fused_body.hpp).
#include <bit>
#include <cstdint>

namespace ridgeline::ops {
namespace {

// A bf16's value: its bits are the top half of an f32's.
inline float widened_bf16(std::uint16_t bits) {
  return std::bit_cast<float>(std::uint32_t{bits} << 16);
}

template <typename B>
struct Bf16IO {
  using T = std::uint16_t;
  static constexpr bool kDirect = false;
  static constexpr std::int64_t kTile = 256;
  static void widen(const T* src, float* dst, std::int64_t n) { B::widen_row(src, dst, n); }
  static void narrow(const float* src, T* dst, std::int64_t n) { B::narrow_row(src, dst, n); }
  static float get(const T* p) { return widened_bf16(*p); }
  static void put(T* p, float v) { B::put(p, v); }
};

}  // namespace
}  // namespace ridgeline::ops
