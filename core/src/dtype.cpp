#include "ridgeline/core/dtype.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <bit>
#include <cmath>

#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

constexpr Spelling<DType> kDTypes[] = {
    {DType::f32, "f32", {}},   {DType::f64, "f64", {}}, {DType::tf32, "tf32", {}},
    {DType::bf16, "bf16", {}}, {DType::f16, "f16", {}}, {DType::i8, "i8", {}},
    {DType::i32, "i32", {}},
};
static_assert(spelled_in_order(kDTypes, DType::i32));

}  // namespace

std::string_view to_string(DType dtype) {
  return spelling_of(kDTypes, dtype).json;
}

std::optional<DType> parse_dtype(std::string_view text) {
  for (DType d : all_dtypes())  // the input types: i32 is only ever an output
    if (to_string(d) == text) return d;
  return std::nullopt;
}

std::size_t size_of(DType dtype) {
  switch (dtype) {
    case DType::f64:
      return 8;
    case DType::f32:
    case DType::tf32:
    case DType::i32:
      return 4;
    case DType::bf16:
    case DType::f16:
      return 2;
    case DType::i8:
      return 1;
  }
  return 0;
}

double unit_roundoff(DType dtype) {
  switch (dtype) {
    case DType::f64:
      return 0x1p-53;
    case DType::f32:
      return 0x1p-24;
    case DType::tf32:
    case DType::f16:
      return 0x1p-11;
    case DType::bf16:
      return 0x1p-8;
    case DType::i8:
    case DType::i32:
      return 0;
  }
  return 0;
}

DType output_dtype(DType dtype) {
  switch (dtype) {
    case DType::tf32:
    case DType::bf16:
    case DType::f16:
      return DType::f32;
    case DType::i8:
      return DType::i32;
    default:
      return dtype;
  }
}

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> all{DType::f32,  DType::f64, DType::tf32,
                                      DType::bf16, DType::f16, DType::i8};
  return all;
}

std::uint16_t to_bf16(float x) {
  const auto bits = std::bit_cast<std::uint32_t>(x);
  if (std::isnan(x)) return static_cast<std::uint16_t>((bits >> 16) | 0x40);  // stays a NaN
  const std::uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

float from_bf16(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

// F16C (part of the x86-64-v3 baseline) converts with IEEE round-to-nearest-even in both
// directions, subnormals included. Not _Float16: clang 14 (the asan preset) has none on
// x86-64. AArch64's __fp16 converts with FCVT, under the FPCR's rounding mode (nearest-even
// unless a program changed it), subnormals included.
std::uint16_t to_f16(float x) {
#if defined(__x86_64__)
  const __m128i h = _mm_cvtps_ph(_mm_set_ss(x), _MM_FROUND_TO_NEAREST_INT);
  return static_cast<std::uint16_t>(_mm_cvtsi128_si32(h) & 0xffff);
#else
  return std::bit_cast<std::uint16_t>(static_cast<__fp16>(x));
#endif
}

float from_f16(std::uint16_t bits) {
#if defined(__x86_64__)
  return _cvtsh_ss(bits);
#else
  return static_cast<float>(std::bit_cast<__fp16>(bits));
#endif
}

}  // namespace ridgeline
