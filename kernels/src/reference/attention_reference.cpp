#include "attention_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ridgeline {

void attention_reference_row(const AttentionHead& h, std::int64_t i, double* out,
                             double* magnitude) {
  const std::int64_t d = h.head_dim, keys = h.causal ? i + 1 : h.seq;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const float* q = h.q + i * d;
  std::vector<double> p(static_cast<std::size_t>(keys));
  double mx = -std::numeric_limits<double>::infinity();
  for (std::int64_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (std::int64_t c = 0; c < d; ++c)
      dot += static_cast<double>(q[c]) * static_cast<double>(h.k[j * d + c]);
    p[j] = dot * scale;
    mx = std::max(mx, p[j]);
  }
  double sum = 0;
  for (double& x : p) {
    x = std::exp(x - mx);
    sum += x;
  }
  std::fill(out, out + d, 0.0);
  std::fill(magnitude, magnitude + d, 0.0);
  for (std::int64_t j = 0; j < keys; ++j) {
    const double pj = p[j] / sum;
    for (std::int64_t c = 0; c < d; ++c) {
      const double v = h.v[j * d + c];
      out[c] += pj * v;
      magnitude[c] += pj * std::fabs(v);
    }
  }
}

}  // namespace ridgeline
