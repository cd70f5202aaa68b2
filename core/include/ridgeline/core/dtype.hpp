#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

// Element types of operands. Only what some kernel implements is listed.
enum class DType { f32, f64 };

std::string_view to_string(DType dtype);
std::optional<DType> parse_dtype(std::string_view text);
std::size_t size_of(DType dtype);
// Unit roundoff u = 2^-p of the type (half the machine epsilon).
double unit_roundoff(DType dtype);
const std::vector<DType>& all_dtypes();

}  // namespace ridgeline
