// The references: textbook formulas, one element at a time, sums in MathReal (long double
// on x86-64, double where long double is software quad: wide_real.hpp), results in double. Slow and
// obviously right; the fused and unfused code is checked against them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "../reference/wide_real.hpp"
#include "rowwise_ops.hpp"

namespace ridgeline::ops {

namespace {
void check_rows(std::int64_t rows, std::int64_t cols) {
  if (rows < 0 || cols < 0)
    throw std::invalid_argument("rows and cols must be >= 0, got " + std::to_string(rows) + " x " +
                                std::to_string(cols));
}
}  // namespace

void softmax_reference(const float* x, double* y, std::int64_t rows, std::int64_t cols) {
  check_rows(rows, cols);
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    MathReal mx = -std::numeric_limits<MathReal>::infinity();
    for (std::int64_t c = 0; c < cols; ++c) mx = std::max<MathReal>(mx, xr[c]);
    MathReal sum = 0;
    for (std::int64_t c = 0; c < cols; ++c) sum += std::exp(static_cast<MathReal>(xr[c]) - mx);
    for (std::int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = static_cast<double>(std::exp(static_cast<MathReal>(xr[c]) - mx) / sum);
  }
}

void layernorm_reference(const float* x, const float* gamma, const float* beta, double* y,
                         std::int64_t rows, std::int64_t cols, float eps) {
  check_rows(rows, cols);
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    MathReal mean = 0;
    for (std::int64_t c = 0; c < cols; ++c) mean += xr[c];
    mean /= cols;
    MathReal var = 0;
    for (std::int64_t c = 0; c < cols; ++c) var += (xr[c] - mean) * (xr[c] - mean);
    var /= cols;
    const MathReal rstd = 1 / std::sqrt(var + eps);
    for (std::int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = static_cast<double>((xr[c] - mean) * rstd * gamma[c] + beta[c]);
  }
}

void rmsnorm_reference(const float* x, const float* gamma, double* y, std::int64_t rows,
                       std::int64_t cols, float eps) {
  check_rows(rows, cols);
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    MathReal ms = 0;
    for (std::int64_t c = 0; c < cols; ++c) ms += static_cast<MathReal>(xr[c]) * xr[c];
    ms /= cols;
    const MathReal rstd = 1 / std::sqrt(ms + eps);
    for (std::int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = static_cast<double>(xr[c] * rstd * gamma[c]);
  }
}

// The same constants as the f32 code (the float values, widened), without its roundings.
void eltwise_chain_reference(const float* x, double* y, std::int64_t n, int L) {
  if (n < 0) throw std::invalid_argument("n must be >= 0, got " + std::to_string(n));
  if (L < 1 || L > kEltwiseChainMaxLength)
    throw std::invalid_argument("eltwise_chain length L must be in 1..32, got " +
                                std::to_string(L));
  for (std::int64_t i = 0; i < n; ++i) {
    MathReal v = x[i];
    for (int op = 0; op < L; ++op) switch (op % 4) {
        case 0:
          v = v * kChainScale0 + kChainShift0;
          break;
        case 1:
          v = std::max<MathReal>(v, 0);
          break;
        case 2:
          v = v * kChainScale2;
          break;
        default:
          v = v * kChainScale3 + kChainShift3;
          break;
      }
    y[i] = static_cast<double>(v);
  }
}

}  // namespace ridgeline::ops
