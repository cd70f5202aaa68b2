#include "gemm_bias_act_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/validation.hpp"
#include "verdict.hpp"

namespace ridgeline {

long double activation_reference(ops::Activation act, long double x) {
  if (act == ops::Activation::relu) return x > 0 ? x : 0.0L;
  const long double sqrt_2_over_pi = std::sqrt(2.0L / 3.14159265358979323846264338327950288L);
  return 0.5L * x * (1.0L + std::tanh(sqrt_2_over_pi * (x + 0.044715L * x * x * x)));
}

void gemm_bias_act_reference(const GemmBiasActInputs& in, std::int64_t i, std::int64_t j0,
                             std::int64_t j1, std::vector<ReferenceEntry>& out) {
  const auto width = static_cast<std::size_t>(j1 - j0);
  std::vector<long double> z(width, 0.0L), scale(width, 0.0L);
  // p outer, j inner: rows of B are read in order.
  for (std::int64_t p = 0; p < in.k; ++p) {
    const long double aip = in.a[i * in.k + p];
    const float* bp = in.b + p * in.n + j0;
    for (std::size_t j = 0; j < width; ++j) {
      const long double t = aip * bp[j];
      z[j] += t;
      scale[j] += std::fabs(t);
    }
  }
  out.resize(width);
  for (std::size_t j = 0; j < width; ++j) {
    const long double bias = in.bias[j0 + static_cast<std::int64_t>(j)];
    out[j] = {activation_reference(in.act, z[j] + bias), scale[j] + std::fabs(bias)};
  }
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

  bool row(std::int64_t i) { return check(i, 0, in_.n); }
  bool entry(std::int64_t i, std::int64_t j) { return check(i, j, j + 1); }
  bool column(std::int64_t j) {
    for (std::int64_t i = 0; i < in_.m; ++i)
      if (!entry(i, j)) return false;
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
  bool check(std::int64_t i, std::int64_t j0, std::int64_t j1) {
    gemm_bias_act_reference(in_, i, j0, j1, ref_);
    for (std::int64_t j = j0; j < j1; ++j) {
      const float c = c_[i * in_.n + j];
      if (!std::isfinite(c)) return unwritten(i, j);
      const ReferenceEntry& r = ref_[static_cast<std::size_t>(j - j0)];
      const long double err = std::fabs(c - r.value) / (r.scale > 0 ? r.scale : 1.0L);
      if (err > max_err_) {
        max_err_ = static_cast<double>(err);
        worst_ = fmt::format("C[{},{}] (reference {:.9g}, got {:.9g})", i, j,
                             static_cast<double>(r.value), c);
      }
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
