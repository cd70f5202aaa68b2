#include "attention_unfused.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline::ops {

std::optional<std::size_t> AttentionUnfused::buffer_bytes(const AttentionShape& s) {
  std::size_t scores = sizeof(float), q = sizeof(float), total = 0;
  for (std::int64_t d : {s.heads, s.seq, s.seq})
    if (__builtin_mul_overflow(scores, static_cast<std::size_t>(d), &scores)) return std::nullopt;
  for (std::int64_t d : {s.heads, s.seq, s.head_dim})
    if (__builtin_mul_overflow(q, static_cast<std::size_t>(d), &q)) return std::nullopt;
  if (__builtin_mul_overflow(scores, std::size_t{2}, &total) ||
      __builtin_add_overflow(total, q, &total))
    return std::nullopt;
  return total;
}

bool AttentionUnfused::available() {
  return cpu_features().has_avx512() || cpu_features().has_avx2_fma();
}

void AttentionUnfused::prepare(const AttentionShape& shape, int threads) {
  if (!available())
    throw std::runtime_error("the packed GEMM needs AVX-512 or AVX2 + FMA, which this CPU lacks");
  uk_ = cpu_features().has_avx512() ? packed::microkernel_f32_avx512()
                                    : packed::microkernel_f32_avx2();
  const packed::Blocking blocking =
      packed::derive_blocking(cache_sizes(), uk_.mr, uk_.nr, sizeof(float));
  shape_ = shape;
  threads_ = threads;
  const auto n = static_cast<std::size_t>(shape.seq);
  const auto h = static_cast<std::size_t>(shape.heads);
  const auto d = static_cast<std::size_t>(shape.head_dim);
  if (scores_.size() != h * n * n) {
    scores_ = OperandBuffer(DType::f32, h * n * n);
    probs_ = OperandBuffer(DType::f32, h * n * n);
  }
  if (q_scaled_.size() != h * n * d) q_scaled_ = OperandBuffer(DType::f32, h * n * d);
  // S = Qs K^T: K is [seq][head_dim], so op(B) = K^T is B transposed with ldb = head_dim.
  qk_.prepare({shape.seq, shape.seq, shape.head_dim, shape.head_dim, shape.head_dim, false, true,
               nullptr, nullptr, nullptr},
              uk_, blocking, threads);
  pv_.prepare({shape.seq, shape.head_dim, shape.seq, shape.seq, shape.head_dim, false, false,
               nullptr, nullptr, nullptr},
              uk_, blocking, threads);
}

void AttentionUnfused::run(const AttentionArgs& a) {
  const std::int64_t n = shape_.seq, d = shape_.head_dim, rows = shape_.heads * n;
  float* qs = q_scaled_.as<float>().data();
  float* s = scores_.as<float>().data();
  float* p = probs_.as<float>().data();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const std::int64_t q_elements = rows * d;
#pragma omp parallel for simd num_threads(threads_) schedule(static)
  for (std::int64_t i = 0; i < q_elements; ++i) qs[i] = a.q[i] * scale;
  for (std::int64_t h = 0; h < shape_.heads; ++h) {
    qk_.bind(qs + h * n * d, a.k + h * n * d, s + h * n * n);
    qk_.run();
  }
  if (shape_.causal) {
    // As masked_fill: every entry read and written, the ones above the diagonal set to -inf.
    constexpr float kNegInf = -std::numeric_limits<float>::infinity();
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t i = r % n;
      float* row = s + r * n;
#pragma omp simd
      for (std::int64_t j = 0; j < n; ++j) row[j] = j > i ? kNegInf : row[j];
    }
  }
  softmax_fused(s, p, rows, n, threads_);
  for (std::int64_t h = 0; h < shape_.heads; ++h) {
    pv_.bind(p + h * n * n, a.v + h * n * d, a.o + h * n * d);
    pv_.run();
  }
}

std::string AttentionUnfused::describe() const {
  return uk_.name ? fmt::format("{}, {}", uk_.name, qk_.blocking().describe()) : "";
}

}  // namespace ridgeline::ops
