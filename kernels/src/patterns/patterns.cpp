#include "ridgeline/kernels/patterns.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace ridgeline {

const std::vector<std::string>& known_patterns() {
  static const std::vector<std::string> patterns{"normal", "uniform", "constant", "zeros"};
  return patterns;
}

bool is_known_pattern(const std::string& pattern) {
  const auto& all = known_patterns();
  return std::find(all.begin(), all.end(), pattern) != all.end();
}

namespace {
// Values of the pattern as doubles: normal N(0, 1), uniform on [-1, 1), constant 0.5, zeros.
template <typename Store>
void fill_with(std::size_t n, const std::string& pattern, std::uint64_t seed, double scale,
               Store store) {
  std::mt19937_64 rng(seed);
  if (pattern == "normal") {
    std::normal_distribution<double> dist(0.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) store(i, dist(rng) * scale);
  } else if (pattern == "uniform") {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) store(i, dist(rng) * scale);
  } else {
    const double value = pattern == "constant" ? 0.5 * scale : 0.0;
    for (std::size_t i = 0; i < n; ++i) store(i, value);
  }
}

template <typename T>
auto store_into(std::span<T> data) {
  return [data](std::size_t i, double x) { data[i] = static_cast<T>(x); };
}

// i8 operands take the same shapes scaled to the integer range: N(0, 32^2) and
// uniform on [-127, 127], rounded and clamped; constant is 64 (0.5 scaled by 128).
auto store_i8(std::span<std::int8_t> data) {
  return [data](std::size_t i, double x) {
    data[i] = static_cast<std::int8_t>(std::clamp(std::nearbyint(x), -127.0, 127.0));
  };
}
}  // namespace

void fill_pattern(OperandBuffer& buffer, const std::string& pattern, std::uint64_t seed) {
  const std::size_t n = buffer.size();
  switch (buffer.dtype()) {
    case DType::f64:
      return fill_with(n, pattern, seed, 1.0, store_into(buffer.as<double>()));
    case DType::f32:
    case DType::tf32:
      return fill_with(n, pattern, seed, 1.0, store_into(buffer.as<float>()));
    case DType::bf16: {
      auto d = buffer.as<std::uint16_t>();
      return fill_with(n, pattern, seed, 1.0,
                       [d](std::size_t i, double x) { d[i] = to_bf16(static_cast<float>(x)); });
    }
    case DType::f16: {
      auto d = buffer.as<std::uint16_t>();
      return fill_with(n, pattern, seed, 1.0,
                       [d](std::size_t i, double x) { d[i] = to_f16(static_cast<float>(x)); });
    }
    case DType::i8:
      return fill_with(n, pattern, seed,
                       pattern == "uniform"  ? 127.0
                       : pattern == "normal" ? 32.0
                                             : 128.0,
                       store_i8(buffer.as<std::int8_t>()));
    case DType::i32:
      return fill_with(n, pattern, seed, 1024.0, store_into(buffer.as<std::int32_t>()));
  }
}

// NaN where the type has one; for i32 a value no product of i8 operands of a supported
// size reaches, so an unwritten entry fails the exact comparison.
void poison(OperandBuffer& buffer) {
  switch (buffer.dtype()) {
    case DType::f64: {
      auto d = buffer.as<double>();
      return std::fill(d.begin(), d.end(), std::numeric_limits<double>::quiet_NaN());
    }
    case DType::f32:
    case DType::tf32: {
      auto d = buffer.as<float>();
      return std::fill(d.begin(), d.end(), std::numeric_limits<float>::quiet_NaN());
    }
    case DType::bf16:
    case DType::f16: {
      auto d = buffer.as<std::uint16_t>();
      const std::uint16_t nan = buffer.dtype() == DType::bf16 ? 0x7fc0 : 0x7e00;
      return std::fill(d.begin(), d.end(), nan);
    }
    case DType::i8: {
      auto d = buffer.as<std::int8_t>();
      return std::fill(d.begin(), d.end(), std::numeric_limits<std::int8_t>::min());
    }
    case DType::i32: {
      auto d = buffer.as<std::int32_t>();
      return std::fill(d.begin(), d.end(), std::numeric_limits<std::int32_t>::min());
    }
  }
}

}  // namespace ridgeline
