#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

// Element types of operands. Only what some kernel implements is listed.
// tf32 is stored as f32 and names the tensor-core mode that rounds inputs to a 10-bit
// mantissa; bf16 and f16 are stored as their 16 bits; i8 products accumulate into i32.
enum class DType { f32, f64, tf32, bf16, f16, i8, i32 };

std::string_view to_string(DType dtype);
std::optional<DType> parse_dtype(std::string_view text);
std::size_t size_of(DType dtype);
// Unit roundoff u = 2^-p of the type (half the machine epsilon); 0 for the integers,
// whose products are exact.
double unit_roundoff(DType dtype);
// The type C is stored in for inputs of `dtype`: f32 for tf32/bf16/f16 (what their
// tensor-core products accumulate in), i32 for i8, else the input type.
DType output_dtype(DType dtype);
// The input types a problem can name (i32 is only ever an output).
const std::vector<DType>& all_dtypes();

// Round-to-nearest-even conversions for the 16-bit floating types.
std::uint16_t to_bf16(float x);
float from_bf16(std::uint16_t bits);
std::uint16_t to_f16(float x);
float from_f16(std::uint16_t bits);

}  // namespace ridgeline
