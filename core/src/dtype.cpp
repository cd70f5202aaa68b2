#include "ridgeline/core/dtype.hpp"

namespace ridgeline {

std::string_view to_string(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return "f32";
    case DType::f64:
      return "f64";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view text) {
  for (DType d : all_dtypes())
    if (to_string(d) == text) return d;
  return std::nullopt;
}

std::size_t size_of(DType dtype) {
  return dtype == DType::f32 ? 4 : 8;
}

double unit_roundoff(DType dtype) {
  return dtype == DType::f32 ? 0x1p-24 : 0x1p-53;
}

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> all{DType::f32, DType::f64};
  return all;
}

}  // namespace ridgeline
