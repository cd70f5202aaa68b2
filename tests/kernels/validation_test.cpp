#include "ridgeline/kernels/validation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "../support/op_cases.hpp"
#include "reference/wide_real.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/patterns.hpp"

namespace ridgeline {

namespace {

// The product in WideReal (long double on x86-64, a double-double elsewhere), rounded to the
// dtype: what a correct kernel writes.
template <typename T>
void reference_into(const Problem& p, Operands& ops) {
  const Shape s = gemm_shape(p);
  auto a = ops.at("A").as<T>();
  auto b = ops.at("B").as<T>();
  auto c = ops.at("C").as<T>();
  // The layout read once: parsed from the params per term, it was most of the test's time.
  const bool ta = transposes_a(gemm_layout(p)), tb = transposes_b(gemm_layout(p));
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      WideReal acc = 0;
      for (std::int64_t q = 0; q < s.k; ++q) {
        const WideReal x = static_cast<double>(ta ? a[q * s.m + i] : a[i * s.k + q]);
        const WideReal y = static_cast<double>(tb ? b[j * s.k + q] : b[q * s.n + j]);
        acc += x * y;
      }
      c[i * s.n + j] = static_cast<T>(static_cast<long double>(acc));
    }
}

Operands correct_operands(const Problem& p) {
  Operands ops = allocate_operands(p);
  fill_pattern(ops.at("A"), "normal", 11);
  fill_pattern(ops.at("B"), "normal", 12);
  if (p.dtype == DType::f32)
    reference_into<float>(p, ops);
  else
    reference_into<double>(p, ops);
  return ops;
}

// A copy of `ops` (the reference is computed once per test: at 400x300x350 it is most of the
// test's time, under ASan most of a minute).
Operands copy_of(const Problem& p, const Operands& ops) {
  Operands copy = allocate_operands(p);
  for (std::size_t i = 0; i < ops.entries().size(); ++i)
    std::memcpy(copy.entries()[i].buffer.raw(), ops.entries()[i].buffer.raw(),
                ops.entries()[i].buffer.bytes());
  return copy;
}

// C from the decoded inputs, stored in the output type (f32 for bf16/f16/tf32, i32 for i8).
Operands low_precision_operands(const Problem& p) {
  Operands ops = allocate_operands(p);
  fill_pattern(ops.at("A"), "normal", 21);
  fill_pattern(ops.at("B"), "uniform", 22);
  const Shape s = gemm_shape(p);
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      long double acc = 0;
      for (std::int64_t q = 0; q < s.k; ++q)
        acc += static_cast<long double>(ops.at("A").at(static_cast<std::size_t>(i * s.k + q))) *
               ops.at("B").at(static_cast<std::size_t>(q * s.n + j));
      const auto at = static_cast<std::size_t>(i * s.n + j);
      if (ops.at("C").dtype() == DType::i32)
        ops.at("C").as<std::int32_t>()[at] = static_cast<std::int32_t>(acc);
      else
        ops.at("C").as<float>()[at] = static_cast<float>(acc);
    }
  return ops;
}

}  // namespace

class LowPrecisionValidation : public ::testing::TestWithParam<DType> {};

TEST_P(LowPrecisionValidation, AcceptsTheProductAndCatchesAWrongEntry) {
  const Problem p = gemm_problem({33, 47, 129, 1}, Layout::NN, GetParam());
  Operands ops = low_precision_operands(p);
  EXPECT_EQ(ops.at("C").dtype(), output_dtype(p.dtype));
  const Validation ok = validate(p, ops, 1);
  EXPECT_EQ(ok.disposition, Disposition::passed) << ok.message;
  // Off by one unit for i8 products, by 1% of sum |a||b| (a term or two dropped) for the
  // floating types.
  const std::size_t at = 5 * 47 + 46;
  if (ops.at("C").dtype() == DType::i32) {
    ops.at("C").as<std::int32_t>()[at] += 1;
  } else {
    double magnitude = 0;
    for (std::size_t q = 0; q < 129; ++q)
      magnitude += std::fabs(ops.at("A").at(5 * 129 + q) * ops.at("B").at(q * 47 + 46));
    ops.at("C").as<float>()[at] += static_cast<float>(0.01 * magnitude);
  }
  const Validation bad = validate(p, ops, 1);
  EXPECT_EQ(bad.disposition, Disposition::incorrect) << bad.max_rel_err;
}

INSTANTIATE_TEST_SUITE_P(Dtypes, LowPrecisionValidation,
                         ::testing::Values(DType::tf32, DType::bf16, DType::f16, DType::i8),
                         [](const auto& param_info) {
                           return std::string(to_string(param_info.param));
                         });

// The double-double that the f64 references sum in where long double is software (AArch64).
TEST(WideReal, ADoubleDoubleKeepsWhatADoubleRoundsAway) {
  const double tiny = std::ldexp(1.0, -70);
  DoubleDouble sum = 1.0;
  sum += tiny;
  sum += -1.0;
  EXPECT_EQ(static_cast<double>(sum), tiny);  // a double sum is 0
  const DoubleDouble x = 1.0 + std::ldexp(1.0, -40);
  const DoubleDouble square = x * x;  // 1 + 2^-39 + 2^-80, exact
  EXPECT_EQ(square.hi, 1.0 + std::ldexp(1.0, -39));
  EXPECT_EQ(square.lo, std::ldexp(1.0, -80));
  EXPECT_EQ(scale_of(square * DoubleDouble(-1.0)), square.hi);
  EXPECT_EQ(static_cast<long double>(square), static_cast<long double>(square.hi) + square.lo);
}

TEST(Patterns, LowPrecisionPatternsStayInRangeAndPoisonIsNotANumber) {
  OperandBuffer i8(DType::i8, 4096);
  fill_pattern(i8, "uniform", 3);
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < i8.size(); ++i)
    lo = std::min(lo, i8.at(i)), hi = std::max(hi, i8.at(i));
  EXPECT_GE(lo, -127.0);
  EXPECT_LE(hi, 127.0);
  EXPECT_LT(lo, -100.0);
  fill_pattern(i8, "constant", 3);
  EXPECT_EQ(i8.at(9), 64.0);
  OperandBuffer bf(DType::bf16, 16);
  fill_pattern(bf, "constant", 3);
  EXPECT_EQ(bf.at(3), 0.5);
  poison(bf);
  EXPECT_TRUE(std::isnan(bf.at(3)));
  OperandBuffer h(DType::f16, 16);
  poison(h);
  EXPECT_TRUE(std::isnan(h.at(0)));
}

class ValidatorSizes : public ::testing::TestWithParam<std::tuple<Shape, DType, Layout>> {};

TEST_P(ValidatorSizes, AcceptsCorrectAndCatchesEachKindOfWrong) {
  auto [shape, dtype, layout] = GetParam();
  Problem p = gemm_problem(shape, layout, dtype, "normal");
  Operands ops = correct_operands(p);
  Validation ok = validate(p, ops, 1);
  EXPECT_EQ(ok.disposition, Disposition::passed) << ok.message;
  const bool direct = static_cast<double>(shape.m) * shape.n * shape.k <= kDirectCheckLimit;
  EXPECT_EQ(ok.method, direct ? "direct" : "freivalds+sampled");

  // An entry never written (still the NaN poison).
  const std::size_t mid = static_cast<std::size_t>((shape.m / 2) * shape.n + shape.n / 2);
  Operands unwritten = copy_of(p, ops);
  if (dtype == DType::f32)
    unwritten.at("C").as<float>()[mid] = std::nanf("");
  else
    unwritten.at("C").as<double>()[mid] = std::nan("");
  Validation v1 = validate(p, unwritten, 1);
  EXPECT_EQ(v1.disposition, Disposition::incorrect);
  EXPECT_NE(v1.message.find("never written"), std::string::npos) << v1.message;

  // A kernel that drops the last term of the sum in C[i, j] (an edge-tile bug), along the
  // last column and along the last row.
  const auto& s = shape;
  // (clang 14 captures no structured binding: layout and dtype by init-capture)
  const auto drop_last_term = [&s, layout = layout, dtype = dtype](Operands& o, std::int64_t i,
                                                                   std::int64_t j) {
    const double a =
        transposes_a(layout) ? o.at("A").at((s.k - 1) * s.m + i) : o.at("A").at(i * s.k + s.k - 1);
    const double b =
        transposes_b(layout) ? o.at("B").at(j * s.k + s.k - 1) : o.at("B").at((s.k - 1) * s.n + j);
    if (dtype == DType::f32)
      o.at("C").as<float>()[i * s.n + j] -= static_cast<float>(a * b);
    else
      o.at("C").as<double>()[i * s.n + j] -= a * b;
  };
  Operands column = copy_of(p, ops), row = copy_of(p, ops);
  for (std::int64_t i = 0; i < s.m; ++i) drop_last_term(column, i, s.n - 1);
  for (std::int64_t j = 0; j < s.n; ++j) drop_last_term(row, s.m - 1, j);
  for (Operands* wrong : {&column, &row}) {
    const Validation v = validate(p, *wrong, 1);
    EXPECT_EQ(v.disposition, Disposition::incorrect)
        << (wrong == &row ? "last row" : "last column") << ", max rel err " << v.max_rel_err;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ValidatorSizes,
                         ::testing::Combine(::testing::Values(Shape{1, 1, 1, 1},
                                                              Shape{37, 53, 29, 1},
                                                              Shape{400, 300, 350, 1}),
                                            ::testing::Values(DType::f32, DType::f64),
                                            ::testing::Values(Layout::NN, Layout::TT)));

TEST(Validator, ToleranceGrowsWithSqrtKAndDependsOnDtype) {
  Problem p = gemm_problem(Shape{8, 8, 100, 1}, Layout::NN, DType::f32, "normal");
  double t100 = gemm_tolerance(p);
  p = gemm_problem(Shape{8, 8, 400, 1}, Layout::NN, DType::f32);
  EXPECT_DOUBLE_EQ(gemm_tolerance(p), 2 * t100);
  p.dtype = DType::f64;
  EXPECT_LT(gemm_tolerance(p), 1e-12);
  // bf16 inputs are exact in the f32 accumulator; tf32 adds the inputs' truncation.
  p.dtype = DType::bf16;
  EXPECT_DOUBLE_EQ(gemm_tolerance(p), 16.0 * 20 * 0x1p-24);
  p.dtype = DType::tf32;
  EXPECT_DOUBLE_EQ(gemm_tolerance(p), 0x1p-9 + 16.0 * 20 * 0x1p-24);
}

TEST(Patterns, FillAsNamedAndPoisonIsNan) {
  OperandBuffer b(DType::f64, 1000);
  fill_pattern(b, "zeros", 1);
  EXPECT_EQ(b.at(17), 0.0);
  fill_pattern(b, "constant", 1);
  EXPECT_EQ(b.at(17), 0.5);
  fill_pattern(b, "uniform", 1);
  double lo = 1, hi = -1;
  for (std::size_t i = 0; i < b.size(); ++i) lo = std::min(lo, b.at(i)), hi = std::max(hi, b.at(i));
  EXPECT_GE(lo, -1.0);
  EXPECT_LE(hi, 1.0);
  EXPECT_LT(lo, -0.9);
  poison(b);
  EXPECT_TRUE(std::isnan(b.at(999)));
  EXPECT_TRUE(is_known_pattern("normal"));
  EXPECT_FALSE(is_known_pattern("ones"));
}

}  // namespace ridgeline

namespace ridgeline {
namespace {

using test::make_problem;

// An op's definition names its check (OpDefinition::reference), and validate() runs the one
// it names: every shipped op's catches outputs that were never written (NaN, as poisoned).
TEST(Validation, EveryShippedOpNamesItsReferenceCheck) {
  for (const OpDefinition& op : op_registry()) {
    if (op.measured_by_caller) {  // a caller's function: Ridgeline has no reference for it
      EXPECT_FALSE(op.reference.named()) << op.name;
      continue;
    }
    EXPECT_TRUE(op.reference.named()) << op.name;
    const Problem p = example_problem(op, op.dtypes.front());
    Operands ops = allocate_operands(p);
    fill_operands(ops, "normal", 3);
    const Validation v = validate(p, ops, 1);
    EXPECT_EQ(v.disposition, Disposition::incorrect) << op.name << ": " << v.message;
  }
}

TEST(Validation, AProblemOfAnOpThatNamesNoCheckIsNotVerifiedAndSaysSo) {
  Problem p = make_problem("softmax", "rows=2,cols=3");
  Operands ops = allocate_operands(p);
  fill_operands(ops, "normal", 3);
  p.op = "not_an_op";
  const Validation v = validate(p, ops, 1);
  EXPECT_EQ(v.disposition, Disposition::not_verified);
  EXPECT_EQ(v.message, "this build has no reference for op not_an_op");
}

// Every rank's inputs are the same: the reference is `ranks` times this rank's share.
TEST(CollectiveValidation, AnAllreduceIsRanksTimesTheInputAndAWrongCountFails) {
  const Problem p = make_problem("allreduce", "count=1000,ranks=3");
  Operands ops = allocate_operands(p);
  fill_operands(ops, "normal", 7);
  auto x = ops.at("x").as<float>();
  auto y = ops.at("y").as<float>();
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] + x[i] + x[i];
  EXPECT_EQ(validate(p, ops, 1).disposition, Disposition::passed);
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = 2 * x[i];  // a rank left out
  const Validation missed = validate(p, ops, 1);
  EXPECT_EQ(missed.disposition, Disposition::incorrect);
  EXPECT_NE(missed.message.find("exceeds tolerance"), std::string::npos) << missed.message;
  y[5] = NAN;
  EXPECT_NE(validate(p, ops, 1).message.find("y[5] is nan"), std::string::npos);
}

TEST(CollectiveValidation, ATensorParallelGemmIsRanksTimesTheShardsProduct) {
  const Problem p = make_problem("tp_gemm", "m=7,n=5,k=12,ranks=3");  // shards of k = 4
  Operands ops = allocate_operands(p);
  fill_operands(ops, "normal", 9);
  auto a = ops.at("A").as<float>();
  auto b = ops.at("B").as<float>();
  auto c = ops.at("C").as<float>();
  ASSERT_EQ(a.size(), 28u);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j) {
      double sum = 0;
      for (int q = 0; q < 4; ++q) sum += static_cast<double>(a[i * 4 + q]) * b[q * 5 + j];
      c[i * 5 + j] = static_cast<float>(3 * sum);
    }
  EXPECT_EQ(validate(p, ops, 1).disposition, Disposition::passed);
  c[12] *= 1.5f;
  EXPECT_EQ(validate(p, ops, 1).disposition, Disposition::incorrect);
}

}  // namespace
}  // namespace ridgeline
