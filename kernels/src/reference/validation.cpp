#include "ridgeline/kernels/validation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>
#include <type_traits>
#include <vector>

#include "attention_validation.hpp"
#include "collective_validation.hpp"
#include "einsum_validation.hpp"
#include "gemm_bias_act_validation.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "rowwise_validation.hpp"
#include "verdict.hpp"
#include "wide_real.hpp"

namespace ridgeline {

namespace {

// Reads A and B stored as `In` (decoded to a real number by Decode, a function object the
// loops inline: through a function pointer, the call per element was most of an 8192^3
// check) and C stored as `Out`.
template <typename In, typename Out, typename Decode>
class GemmChecker {
 public:
  // Sums in WideReal where the inputs are f64 (the reference must be more accurate than
  // the kernel's own f64); in double for the narrower ones, whose products are exact in
  // double (at most 48 significant bits) and whose sums of k of them are off by at most
  // k 2^-53 of the scale, far under their tolerances: vector code, not the x87's.
  using Acc = std::conditional_t<std::is_same_v<In, double>, WideReal, double>;
  using Scale = ScaleOf<Acc>;

  GemmChecker(const Problem& p, const GemmOperands& ops, Decode decode)
      : m_(gemm_shape(p).m),
        n_(gemm_shape(p).n),
        k_(gemm_shape(p).k),
        lda_(lda_of(p)),
        ldb_(ldb_of(p)),
        ta_(transposes_a(gemm_layout(p))),
        tb_(transposes_b(gemm_layout(p))),
        a_(ops.a.as<In>().data()),
        b_(ops.b.as<In>().data()),
        c_(ops.c.as<Out>().data()),
        decode_(decode) {}

  Acc a(std::int64_t i, std::int64_t p) const {
    return static_cast<Acc>(decode_(ta_ ? a_[p * lda_ + i] : a_[i * lda_ + p]));
  }
  Acc b(std::int64_t p, std::int64_t j) const {
    return static_cast<Acc>(decode_(tb_ ? b_[j * ldb_ + p] : b_[p * ldb_ + j]));
  }
  Out c(std::int64_t i, std::int64_t j) const { return c_[i * n_ + j]; }

  // Records the entry's error relative to sum |a||b|; false if C holds a non-number there.
  bool check_entry(std::int64_t i, std::int64_t j) {
    Acc ref = 0;
    Scale mag = 0;
    for (std::int64_t p = 0; p < k_; ++p) {
      Acc x = a(i, p) * b(p, j);
      ref += x;
      mag += scale_of(x);
    }
    return record(c(i, j), static_cast<long double>(ref), mag, fmt::format("C[{},{}]", i, j));
  }

  // Row i whole, B read along its rows (entry by entry, each of B's loads was k apart and
  // missed the caches: at 8192^3 the edge rows took most of a case's 10 s of validation);
  // B stored transposed already runs each entry's dot along its storage.
  bool check_row(std::int64_t i) {
    if (tb_) {
      for (std::int64_t j = 0; j < n_; ++j)
        if (!check_entry(i, j)) return false;
      return true;
    }
    std::vector<Acc> ref(static_cast<std::size_t>(n_), 0);
    std::vector<Scale> mag(ref.size(), 0);
    for (std::int64_t p = 0; p < k_; ++p) {
      const Acc ai = a(i, p);
      const In* bp = b_ + p * ldb_;
      for (std::size_t j = 0; j < ref.size(); ++j) {
        const Acc x = ai * static_cast<Acc>(decode_(bp[j]));
        ref[j] += x;
        mag[j] += scale_of(x);
      }
    }
    for (std::int64_t j = 0; j < n_; ++j) {
      const auto at = static_cast<std::size_t>(j);
      if (!record(c(i, j), static_cast<long double>(ref[at]), mag[at],
                  fmt::format("C[{},{}]", i, j)))
        return false;
    }
    return true;
  }

  // Column j whole, B's column read once.
  bool check_column(std::int64_t j) {
    std::vector<Acc> column(static_cast<std::size_t>(k_));
    for (std::int64_t p = 0; p < k_; ++p) column[static_cast<std::size_t>(p)] = b(p, j);
    for (std::int64_t i = 0; i < m_; ++i) {
      Acc ref = 0;
      Scale mag = 0;
      for (std::int64_t p = 0; p < k_; ++p) {
        const Acc x = a(i, p) * column[static_cast<std::size_t>(p)];
        ref += x;
        mag += scale_of(x);
      }
      if (!record(c(i, j), static_cast<long double>(ref), mag, fmt::format("C[{},{}]", i, j)))
        return false;
    }
    return true;
  }

  // One Freivalds projection: compares C x with A (B x) for a random x.
  bool check_projection(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<Acc> x(n_), bx(k_, 0);
    std::vector<Scale> bx_mag(k_, 0);
    for (auto& v : x) v = dist(rng);
    for (std::int64_t p = 0; p < k_; ++p) {
      Acc sum = 0;  // in registers: x may alias bx for the compiler
      Scale mag = 0;
      for (std::int64_t j = 0; j < n_; ++j) {
        Acc t = b(p, j) * x[j];
        sum += t;
        mag += scale_of(t);
      }
      bx[p] = sum;
      bx_mag[p] = mag;
    }
    for (std::int64_t i = 0; i < m_; ++i) {
      Acc ref = 0, cx = 0;
      Scale mag = 0;
      for (std::int64_t p = 0; p < k_; ++p) {
        Acc ai = a(i, p);
        ref += ai * bx[p];
        mag += scale_of(ai) * bx_mag[p];
      }
      for (std::int64_t j = 0; j < n_; ++j) cx += static_cast<Acc>(c(i, j)) * x[j];
      if (!record_value(static_cast<long double>(cx), static_cast<long double>(ref), mag,
                        fmt::format("row {} of C x (Freivalds)", i)))
        return false;
    }
    return true;
  }

  bool all_finite() {
    for (std::int64_t i = 0; i < m_; ++i)
      for (std::int64_t j = 0; j < n_; ++j)
        if (!std::isfinite(static_cast<double>(c(i, j)))) {
          failure_ = fmt::format("C[{},{}] is {} (never written, or overflow)", i, j,
                                 static_cast<double>(c(i, j)));
          return false;
        }
    return true;
  }

  std::int64_t m() const { return m_; }
  std::int64_t n() const { return n_; }
  double max_err() const { return max_err_; }
  const std::string& worst() const { return worst_; }
  const std::string& failure() const { return failure_; }

 private:
  bool record(Out value, long double ref, long double mag, const std::string& where) {
    if (!std::isfinite(static_cast<double>(value))) {
      failure_ =
          fmt::format("{} is {} (never written, or overflow)", where, static_cast<double>(value));
      return false;
    }
    return record_value(value, ref, mag, where);
  }
  bool record_value(long double value, long double ref, long double mag, const std::string& where) {
    long double err = std::fabs(value - ref) / (mag > 0 ? mag : 1.0L);
    if (!std::isfinite(static_cast<double>(err))) {
      failure_ = fmt::format("{} is not a number", where);
      return false;
    }
    if (err > max_err_) {
      max_err_ = static_cast<double>(err);
      worst_ = where;
    }
    return true;
  }

  std::int64_t m_, n_, k_, lda_, ldb_;
  bool ta_, tb_;
  const In* a_;
  const In* b_;
  const Out* c_;
  Decode decode_;
  double max_err_ = 0;
  std::string worst_;
  std::string failure_;
};

template <typename In, typename Out, typename Decode>
Validation validate_typed(const Problem& p, const GemmOperands& ops, std::uint64_t seed,
                          Decode decode) {
  Validation v;
  v.tolerance = gemm_tolerance(p);
  GemmChecker<In, Out, Decode> check(p, ops, decode);
  const double work = static_cast<double>(gemm_shape(p).m) * gemm_shape(p).n * gemm_shape(p).k;
  bool ok = true;
  if (work <= kDirectCheckLimit) {
    v.method = "direct";
    for (std::int64_t i = 0; ok && i < check.m(); ++i)
      for (std::int64_t j = 0; ok && j < check.n(); ++j) ok = check.check_entry(i, j);
  } else {
    v.method = "freivalds+sampled";
    std::mt19937_64 rng(seed ^ 0x5eed5eedULL);
    ok = check.all_finite();
    for (int probe = 0; ok && probe < 2; ++probe) ok = check.check_projection(rng);
    // Edge tiles are where blocked kernels go wrong: check the outer rows and columns whole.
    ok = ok && check.check_row(0) && check.check_row(check.m() - 1) && check.check_column(0) &&
         check.check_column(check.n() - 1);
    std::uniform_int_distribution<std::int64_t> row(0, check.m() - 1), col(0, check.n() - 1);
    for (int s = 0; ok && s < 1024; ++s) ok = check.check_entry(row(rng), col(rng));
  }
  set_verdict(v, ok, check.failure(), check.max_err(), check.worst());
  return v;
}

}  // namespace

Validation validate_gemm(const Problem& problem, const GemmOperands& operands, std::uint64_t seed) {
  if (gemm_shape(problem).batch != 1) {
    Validation v;
    v.disposition = Disposition::not_verified;
    v.message = "batched problems are not validated yet";
    return v;
  }
  switch (problem.dtype) {
    case DType::f64:
      return validate_typed<double, double>(problem, operands, seed,
                                            [](double x) -> double { return x; });
    case DType::f32:
    case DType::tf32:
      return validate_typed<float, float>(problem, operands, seed,
                                          [](float x) -> double { return x; });
    case DType::bf16:
      return validate_typed<std::uint16_t, float>(
          problem, operands, seed, [](std::uint16_t x) -> double { return from_bf16(x); });
    case DType::f16:
      return validate_typed<std::uint16_t, float>(
          problem, operands, seed, [](std::uint16_t x) -> double { return from_f16(x); });
    case DType::i8:
      return validate_typed<std::int8_t, std::int32_t>(problem, operands, seed,
                                                       [](std::int8_t x) -> double { return x; });
    case DType::i32:
      break;
  }
  Validation v;
  v.disposition = Disposition::not_verified;
  v.message = "i32 is an output type; no problem has i32 inputs";
  return v;
}

namespace {

Validation validate_gemm_op(const Problem& problem, Operands& operands, std::uint64_t seed) {
  return validate_gemm(problem, gemm_view(operands), seed);
}

// The code of each shipped reference check, by the kind an op's definition names.
ReferenceFunction shipped_check(ReferenceKind kind) {
  switch (kind) {
    case ReferenceKind::none:
      return nullptr;
    case ReferenceKind::gemm:
      return &validate_gemm_op;
    case ReferenceKind::gemm_bias_act:
      return &validate_gemm_bias_act;
    case ReferenceKind::softmax:
      return &validate_rowwise_op<RowwiseOp::softmax>;
    case ReferenceKind::layernorm:
      return &validate_rowwise_op<RowwiseOp::layernorm>;
    case ReferenceKind::rmsnorm:
      return &validate_rowwise_op<RowwiseOp::rmsnorm>;
    case ReferenceKind::eltwise_chain:
      return &validate_rowwise_op<RowwiseOp::eltwise_chain>;
    case ReferenceKind::attention:
      return &validate_attention;
    case ReferenceKind::einsum:
      return &validate_einsum;
    case ReferenceKind::allreduce:
      return &validate_allreduce;
    case ReferenceKind::tp_gemm:
      return &validate_tp_gemm;
  }
  return nullptr;
}

}  // namespace

Validation validate(const Problem& problem, Operands& operands, std::uint64_t seed) {
  const OpDefinition* op = find_op(problem.op);
  const OpReference reference = op ? op->reference : OpReference{};
  const ReferenceFunction check =
      reference.own() ? reference.own() : shipped_check(reference.kind());
  if (check) return check(problem, operands, seed);
  Validation v;
  v.disposition = Disposition::not_verified;
  v.message = fmt::format("this build has no reference for op {}", problem.op);
  return v;
}

}  // namespace ridgeline
