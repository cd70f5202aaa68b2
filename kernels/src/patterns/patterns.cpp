#include "ridgeline/kernels/patterns.hpp"

#include <algorithm>
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
template <typename T>
void fill_typed(std::span<T> data, const std::string& pattern, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  if (pattern == "normal") {
    std::normal_distribution<double> dist(0.0, 1.0);
    for (auto& x : data) x = static_cast<T>(dist(rng));
  } else if (pattern == "uniform") {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto& x : data) x = static_cast<T>(dist(rng));
  } else if (pattern == "constant") {
    std::fill(data.begin(), data.end(), static_cast<T>(0.5));
  } else {
    std::fill(data.begin(), data.end(), static_cast<T>(0));
  }
}
}  // namespace

void fill_pattern(OperandBuffer& buffer, const std::string& pattern, std::uint64_t seed) {
  if (buffer.dtype() == DType::f32)
    fill_typed(buffer.as<float>(), pattern, seed);
  else
    fill_typed(buffer.as<double>(), pattern, seed);
}

void poison(OperandBuffer& buffer) {
  if (buffer.dtype() == DType::f32) {
    auto d = buffer.as<float>();
    std::fill(d.begin(), d.end(), std::numeric_limits<float>::quiet_NaN());
  } else {
    auto d = buffer.as<double>();
    std::fill(d.begin(), d.end(), std::numeric_limits<double>::quiet_NaN());
  }
}

}  // namespace ridgeline
