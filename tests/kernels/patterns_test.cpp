// The input patterns: each fills what its name says, in every type it is defined for, and
// refuses the types it means nothing for.
#include "ridgeline/kernels/patterns.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {
namespace {

std::vector<double> values(DType dtype, const std::string& pattern, std::size_t n = 4096) {
  OperandBuffer b(dtype, n);
  fill_pattern(b, pattern, 3);
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = b.at(i);
  return v;
}

TEST(Patterns, NamesAndFamiliesAreKnownAndNothingElse) {
  for (const char* p :
       {"normal", "uniform", "constant", "zeros", "integer", "subnormal", "sign_random", "sparse1",
        "sparse50", "sparse99", "mantissa0", "mantissa23"})
    EXPECT_TRUE(is_known_pattern(p)) << p;
  for (const char* p : {"ones", "sparse", "sparse0", "sparse100", "sparse05", "sparse-5",
                        "sparse5%", "mantissa", "mantissa53", "mantissa2x", "Normal"})
    EXPECT_FALSE(is_known_pattern(p)) << p;
  EXPECT_EQ(describe_pattern("sparse90"), "90% zeros, the rest N(0, 1)");
  EXPECT_EQ(describe_pattern("ones"), "");
}

TEST(Patterns, SubnormalIsEverySubnormalOfTheTypeAndOnlyThose) {
  for (DType d : {DType::f32, DType::f64}) {
    bool negative = false, positive = false;
    for (double x : values(d, "subnormal")) {
      if (d == DType::f32)
        EXPECT_EQ(std::fpclassify(static_cast<float>(x)), FP_SUBNORMAL) << x;
      else
        EXPECT_EQ(std::fpclassify(x), FP_SUBNORMAL) << x;
      (x < 0 ? negative : positive) = true;
    }
    EXPECT_TRUE(negative && positive);
  }
  // The 16-bit types: below their smallest normal (bf16 shares f32's; f16's is 2^-14).
  for (double x : values(DType::bf16, "subnormal")) {
    EXPECT_LT(std::abs(x), 0x1p-126);
    EXPECT_GT(std::abs(x), 0.0);
  }
  for (double x : values(DType::f16, "subnormal")) {
    EXPECT_LT(std::abs(x), 0x1p-14);
    EXPECT_GE(std::abs(x), 0x1p-24);
  }
}

TEST(Patterns, SparseIntegerSignRandomAndMantissaAreWhatTheySay) {
  const auto sparse = values(DType::f32, "sparse90", 100000);
  const auto zeros = std::count(sparse.begin(), sparse.end(), 0.0);
  EXPECT_NEAR(static_cast<double>(zeros) / 100000, 0.90, 0.01);

  std::set<double> seen;
  for (double x : values(DType::f32, "integer")) {
    EXPECT_EQ(x, std::round(x));
    EXPECT_LE(std::abs(x), 4.0);
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 9u);  // -4 ... 4

  seen.clear();
  for (double x : values(DType::f64, "sign_random")) seen.insert(x);
  EXPECT_EQ(seen, (std::set<double>{-0.5, 0.5}));

  // mantissa2: the significand is 1.xx (binary): 4 distinct significands, any exponent.
  seen.clear();
  for (double x : values(DType::f32, "mantissa2")) {
    int e = 0;
    seen.insert(std::abs(std::frexp(x, &e)));
  }
  EXPECT_EQ(seen, (std::set<double>{0.5, 0.625, 0.75, 0.875}));
}

// Large operands fill in parallel blocks: the values depend on the seed alone, never on the
// thread count; each block draws its own numbers; the whole is still N(0, 1).
TEST(Patterns, AFillDependsOnTheSeedNotOnTheThreadCount) {
  const std::size_t n = (std::size_t{1} << 18) + 77;  // four blocks and a tail
  const auto fill = [&](int threads, std::uint64_t seed) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    OperandBuffer b(DType::f32, n);
    fill_pattern(b, "normal", seed);
    omp_set_num_threads(before);
    const auto v = b.as<float>();
    return std::vector<float>(v.begin(), v.end());
  };
  const auto one = fill(1, 7);
  EXPECT_EQ(one, fill(2, 7));
  EXPECT_EQ(one, fill(3, 7));
  EXPECT_NE(one, fill(1, 8));
  const std::size_t block = std::size_t{1} << 16;
  EXPECT_FALSE(std::equal(one.begin(), one.begin() + 1000, one.begin() + block));
  double sum = 0, squares = 0;
  for (float x : one) {
    sum += x;
    squares += static_cast<double>(x) * x;
  }
  const double mean = sum / static_cast<double>(n);
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(squares / static_cast<double>(n) - mean * mean, 1.0, 0.01);
}

TEST(Patterns, FloatingPointPatternsAreRefusedWhereTheyMeanNothing) {
  EXPECT_FALSE(pattern_support("subnormal", DType::i8));
  EXPECT_FALSE(pattern_support("mantissa3", DType::i8));
  EXPECT_TRUE(pattern_support("sparse50", DType::i8));
  EXPECT_TRUE(pattern_support("mantissa7", DType::bf16));
  const Support s = pattern_support("mantissa8", DType::bf16);
  EXPECT_FALSE(s);
  EXPECT_EQ(s.reason, "pattern mantissa8: bf16 keeps only 7 significand bits");
  OperandBuffer b(DType::i8, 16);
  EXPECT_THROW(fill_pattern(b, "subnormal", 1), std::invalid_argument);
  EXPECT_THROW(fill_pattern(b, "ones", 1), std::invalid_argument);
}

// The cold cache's flush writes every line back: the operands keep their values (odd
// sizes, past a line's end, included).
TEST(ColdCache, EvictingTheOperandsKeepsEveryValue) {
  Operands ops =
      allocate_operands(gemm_problem(Shape{37, 53, 29, 1}, Layout::NN, DType::f32, "normal"));
  fill_operands(ops, "normal", 3);
  std::vector<std::vector<double>> before;
  for (const auto& e : ops.entries()) {
    auto& v = before.emplace_back();
    for (std::size_t i = 0; i < e.buffer.size(); ++i) v.push_back(e.buffer.at(i));
  }
  evict_from_caches(ops);
  for (std::size_t k = 0; k < ops.entries().size(); ++k) {
    const OperandBuffer& b = ops.entries()[k].buffer;
    for (std::size_t i = 0; i < b.size(); ++i) {
      const double x = b.at(i), y = before[k][i];
      ASSERT_TRUE(x == y || (std::isnan(x) && std::isnan(y))) << k << " " << i;  // outputs: NaN
    }
  }
}

}  // namespace
}  // namespace ridgeline
