#pragma once
// What the row-wise ops' tests share: inputs, the shapes every kernel runs on, and an output
// buffer with canaries past its end.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace ridgeline::ops::testing_support {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Awkward shapes: one row or column, widths off the vector width, a prime past 4096.
inline constexpr std::int64_t kRows[] = {1, 3, 64};
inline constexpr std::int64_t kCols[] = {1, 7, 15, 16, 17, 31, 33, 1000, 4099};

inline std::vector<float> normal(std::size_t n, float mean, float sd, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(mean, sd);
  std::vector<float> v(n);
  for (float& f : v) f = dist(gen);
  return v;
}

// A buffer with canaries past its end: masked tails and unfused passes must not write there.
class Guarded {
 public:
  Guarded(std::size_t n, float fill) : n_(n), v_(n + kGuard, fill) {
    for (std::size_t i = n; i < v_.size(); ++i) v_[i] = kCanary;
  }
  float* data() { return v_.data(); }
  float operator[](std::size_t i) const { return v_[i]; }
  bool intact() const {
    for (std::size_t i = n_; i < v_.size(); ++i)
      if (v_[i] != kCanary) return false;
    return true;
  }

 private:
  static constexpr std::size_t kGuard = 64;
  static constexpr float kCanary = 12345.678f;
  std::size_t n_;
  std::vector<float> v_;
};

}  // namespace ridgeline::ops::testing_support
