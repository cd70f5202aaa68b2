#pragma once
// What the oneDNN op tests share: the availability check, random inputs, textbook
// double-precision references and the closeness check (onednn_ops_test.cpp for f32,
// onednn_bf16_test.cpp for bf16).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "onednn/onednn_ops.hpp"

#ifndef RIDGELINE_ONEDNN_ENABLED
#error "RIDGELINE_ONEDNN_ENABLED (0 or 1) comes from tests/CMakeLists.txt"
#endif

namespace ridgeline::ops::onednn_testing {

// Skips with the reason where oneDNN is not built in; fails where it was configured in
// and still cannot run.
#define REQUIRE_ONEDNN()                                                         \
  do {                                                                           \
    const std::string why = onednn_unavailable_reason();                         \
    if (!why.empty()) {                                                          \
      if (RIDGELINE_ONEDNN_ENABLED) FAIL() << "built with oneDNN, yet: " << why; \
      GTEST_SKIP() << why;                                                       \
    }                                                                            \
  } while (0)

inline std::vector<float> random_vector(std::size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// ---- references (double) ------------------------------------------------------------------

inline std::vector<double> softmax_ref(const std::vector<float>& x, std::int64_t rows,
                                       std::int64_t cols) {
  std::vector<double> y(x.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = &x[r * cols];
    double mx = -INFINITY;
    for (std::int64_t c = 0; c < cols; ++c) mx = std::max(mx, double(row[c]));
    double sum = 0;
    for (std::int64_t c = 0; c < cols; ++c) sum += y[r * cols + c] = std::exp(row[c] - mx);
    for (std::int64_t c = 0; c < cols; ++c) y[r * cols + c] /= sum;
  }
  return y;
}

inline std::vector<double> layernorm_ref(const std::vector<float>& x, const std::vector<float>& g,
                                         const std::vector<float>& b, std::int64_t rows,
                                         std::int64_t cols, double eps) {
  std::vector<double> y(x.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (std::int64_t c = 0; c < cols; ++c) mean += x[r * cols + c];
    mean /= cols;
    for (std::int64_t c = 0; c < cols; ++c) var += std::pow(x[r * cols + c] - mean, 2);
    var /= cols;
    for (std::int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = (x[r * cols + c] - mean) / std::sqrt(var + eps) * g[c] + b[c];
  }
  return y;
}

inline double gelu_tanh(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
}

// ---- checks -------------------------------------------------------------------------------

// |got - ref| <= abs_tol + rel_tol * |ref| everywhere; reports the first miss.
inline void expect_close(const std::vector<float>& got, const std::vector<double>& ref,
                         double abs_tol, double rel_tol) {
  ASSERT_EQ(got.size(), ref.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tol = abs_tol + rel_tol * std::abs(ref[i]);
    if (!(std::abs(got[i] - ref[i]) <= tol)) {  // NaN fails too
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", reference " << ref[i]
                    << ", tolerance " << tol;
      return;
    }
  }
}

inline const std::vector<std::pair<std::int64_t, std::int64_t>> kRowShapes{
    {1, 1}, {1, 4096}, {4096, 1}, {7, 33}, {3, 1000}, {64, 257}};

}  // namespace ridgeline::ops::onednn_testing
