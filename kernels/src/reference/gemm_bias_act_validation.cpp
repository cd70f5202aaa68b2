#include "gemm_bias_act_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/validation.hpp"
#include "verdict.hpp"

namespace ridgeline {

MathReal activation_reference(ops::Activation act, MathReal x) {
  if (act == ops::Activation::relu) return x > 0 ? x : MathReal{0};
  const MathReal sqrt_2_over_pi = std::sqrt(2 / std::numbers::pi_v<MathReal>);
  const MathReal c = static_cast<MathReal>(0.044715L);
  return x / 2 * (1 + std::tanh(sqrt_2_over_pi * (x + c * x * x * x)));
}

namespace {

// z and scale summed in double: a product of two f32 (or widened bf16) is exact in double
// (48 significant bits of 53), and the sum of k of them is off by at most k 2^-53 of the
// scale (1e-12 at k = 8192), far under any tolerance, where long double ran the loop through
// memory at a third of the speed (8192^3 was 12 s of a case's validation).
ReferenceEntry finish(const GemmBiasActInputs& in, std::int64_t j, double z, double scale) {
  const MathReal bias = in.bias[j];
  return {activation_reference(in.act, z + bias), scale + std::fabs(bias)};
}

}  // namespace

void gemm_bias_act_reference(const GemmBiasActInputs& in, std::int64_t i, std::int64_t j0,
                             std::int64_t j1, std::vector<ReferenceEntry>& out) {
  const auto width = static_cast<std::size_t>(j1 - j0);
  std::vector<double> z(width, 0.0), scale(width, 0.0);
  // p outer, j inner: rows of B are read in order.
  for (std::int64_t p = 0; p < in.k; ++p) {
    const double aip = in.a[i * in.k + p];
    const float* bp = in.b + p * in.n + j0;
    for (std::size_t j = 0; j < width; ++j) {
      const double t = aip * bp[j];
      z[j] += t;
      scale[j] += std::fabs(t);
    }
  }
  out.resize(width);
  for (std::size_t j = 0; j < width; ++j)
    out[j] = finish(in, j0 + static_cast<std::int64_t>(j), z[j], scale[j]);
}

ReferenceEntry gemm_bias_act_reference_entry(const GemmBiasActInputs& in, const float* b_column,
                                             std::int64_t i, std::int64_t j) {
  double z = 0, scale = 0;
  const float* a = in.a + i * in.k;
  for (std::int64_t p = 0; p < in.k; ++p) {
    const double t = static_cast<double>(a[p]) * b_column[p];
    z += t;
    scale += std::fabs(t);
  }
  return finish(in, j, z, scale);
}

namespace {

// An input as f32: bf16 widened (exactly: bf16 is the top half of an f32) into `storage`.
const float* as_f32(const OperandBuffer& buffer, std::vector<float>& storage) {
  if (buffer.dtype() == DType::f32) return buffer.as<float>().data();
  const auto bits = buffer.as<std::uint16_t>();
  storage.resize(bits.size());
  std::transform(bits.begin(), bits.end(), storage.begin(), from_bf16);
  return storage.data();
}

class Checker {
 public:
  Checker(const Problem& p, Operands& ops)
      : in_{as_f32(ops.at("A"), a_), as_f32(ops.at("B"), b_), as_f32(ops.at("bias"), bias_),
            gemm_shape(p).m,         gemm_shape(p).n,         gemm_shape(p).k,
            ops::activation_of(p)},
        c_(ops.at("C").as<float>().data()) {}

  std::int64_t m() const { return in_.m; }
  std::int64_t n() const { return in_.n; }

  bool row(std::int64_t i) {
    gemm_bias_act_reference(in_, i, 0, in_.n, ref_);
    for (std::int64_t j = 0; j < in_.n; ++j)
      if (!compare(i, j, ref_[static_cast<std::size_t>(j)])) return false;
    return true;
  }
  // Single entries and columns read B's column once, contiguously: strided, each of its k
  // loads missed the caches once per entry.
  bool entry(std::int64_t i, std::int64_t j) {
    gather_column(j);
    return compare(i, j, gemm_bias_act_reference_entry(in_, column_.data(), i, j));
  }
  bool column(std::int64_t j) {
    gather_column(j);
    for (std::int64_t i = 0; i < in_.m; ++i)
      if (!compare(i, j, gemm_bias_act_reference_entry(in_, column_.data(), i, j))) return false;
    return true;
  }
  bool all_finite() {
    for (std::int64_t i = 0; i < in_.m; ++i)
      for (std::int64_t j = 0; j < in_.n; ++j)
        if (!std::isfinite(c_[i * in_.n + j])) return unwritten(i, j);
    return true;
  }

  double max_err() const { return max_err_; }
  const std::string& worst() const { return worst_; }
  const std::string& failure() const { return failure_; }

 private:
  void gather_column(std::int64_t j) {
    column_.resize(static_cast<std::size_t>(in_.k));
    for (std::int64_t p = 0; p < in_.k; ++p)
      column_[static_cast<std::size_t>(p)] = in_.b[p * in_.n + j];
  }
  bool compare(std::int64_t i, std::int64_t j, const ReferenceEntry& r) {
    const float c = c_[i * in_.n + j];
    if (!std::isfinite(c)) return unwritten(i, j);
    const MathReal err = std::fabs(c - r.value) / (r.scale > 0 ? r.scale : 1);
    if (err > max_err_) {
      max_err_ = static_cast<double>(err);
      worst_ = fmt::format("C[{},{}] (reference {:.9g}, got {:.9g})", i, j,
                           static_cast<double>(r.value), c);
    }
    return true;
  }
  bool unwritten(std::int64_t i, std::int64_t j) {
    failure_ = fmt::format("C[{},{}] is {} (never written, or overflow)", i, j, c_[i * in_.n + j]);
    return false;
  }

  std::vector<float> a_, b_, bias_;  // bf16 inputs widened; declared before in_ points at them
  GemmBiasActInputs in_;
  const float* c_;
  std::vector<ReferenceEntry> ref_;
  std::vector<float> column_;  // B's column j, for entries and columns
  double max_err_ = 0;
  std::string worst_;
  std::string failure_;
};

}  // namespace

Validation validate_gemm_bias_act(const Problem& p, Operands& operands, std::uint64_t seed) {
  Validation v;
  if (p.dtype != DType::f32 && p.dtype != DType::bf16) {
    v.disposition = Disposition::not_verified;
    v.message =
        fmt::format("gemm_bias_act is validated in f32 and bf16 only, not {}", to_string(p.dtype));
    return v;
  }
  v.tolerance = op_definition(p.op).tolerance(p);
  Checker check(p, operands);
  const Shape s = gemm_shape(p);
  bool ok = true;
  if (static_cast<double>(s.m) * s.n * s.k <= kDirectCheckLimit) {
    v.method = "direct";
    for (std::int64_t i = 0; ok && i < check.m(); ++i) ok = check.row(i);
  } else {
    v.method = "edges+sampled";
    std::mt19937_64 rng(seed ^ 0x6ba5eedULL);
    std::uniform_int_distribution<std::int64_t> row(0, check.m() - 1), col(0, check.n() - 1);
    ok = check.all_finite() && check.row(0) && check.row(check.m() - 1) && check.column(0) &&
         check.column(check.n() - 1);
    for (int r = 0; ok && r < 16; ++r) ok = check.row(row(rng));
    for (int e = 0; ok && e < 1024; ++e) ok = check.entry(row(rng), col(rng));
  }
  set_verdict(v, ok, check.failure(), check.max_err(), check.worst());
  return v;
}

}  // namespace ridgeline
