// The row-wise ops (kernels/src/ops): the references against hand computations; the fused
// and unfused code of every ISA this CPU runs against the references on awkward shapes, with
// NaN-poisoned outputs and canaries past every buffer's end; extreme softmax inputs; the
// vector exp's accuracy.
#include "ops/rowwise_ops.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ridgeline/kernels/cpu_features.hpp"
#include "rowwise_test_support.hpp"

namespace ridgeline::ops {
namespace {

using namespace testing_support;

constexpr float kInf = std::numeric_limits<float>::infinity();

// Tolerances, each on the largest |error| in a row divided by the row's scale (its largest
// |reference| value): f32 arithmetic with sums over up to 4099 terms in a few vector lanes.
constexpr double kSoftmaxTol = 1e-6;
constexpr double kNormTol = 1e-5;
// eltwise_chain: each op rounds once and none amplifies an earlier error by more than
// 1.0001, so L ops are off by at most L roundings of the largest intermediate (<= |x| + 2).
double chain_tol(int L, float x) {
  return (L + 1) * 0x1p-24 * (std::fabs(x) + 2.0);
}

// Worst over rows of max_c |y - ref| / max_c |ref|; NaN (an unwritten output) stays NaN.
double worst_row_error(const Guarded& y, const std::vector<double>& ref, std::int64_t rows,
                       std::int64_t cols) {
  double worst = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    double err = 0, scale = 0;
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * cols + c);
      const double e = std::fabs(y[i] - ref[i]);
      err = std::isnan(e) ? e : std::max(err, e);
      scale = std::max(scale, std::fabs(ref[i]));
    }
    const double rel = err / std::max(scale, 1e-30);
    worst = std::isnan(rel) ? rel : std::max(worst, rel);
  }
  return worst;
}

TEST(RowwiseReference, SoftmaxByHand) {
  const std::vector<float> x{0.0f, std::log(2.0f), 1.0f, 1.0f};
  std::vector<double> y(4);
  softmax_reference(x.data(), y.data(), 2, 2);
  EXPECT_NEAR(y[0], 1.0 / 3, 1e-7);  // e^0 / (e^0 + e^ln2) = 1 / 3
  EXPECT_NEAR(y[1], 2.0 / 3, 1e-7);
  EXPECT_DOUBLE_EQ(y[2], 0.5);
  EXPECT_DOUBLE_EQ(y[3], 0.5);
}

TEST(RowwiseReference, LayernormByHand) {
  // mean 2, biased variance 2/3: (x - 2) / sqrt(2/3) = {-1.2247, 0, 1.2247}.
  const std::vector<float> x{1, 2, 3}, ones{1, 1, 1}, zeros{0, 0, 0};
  std::vector<double> y(3);
  layernorm_reference(x.data(), ones.data(), zeros.data(), y.data(), 1, 3, 0.0f);
  EXPECT_NEAR(y[0], -1.224744871, 1e-8);
  EXPECT_NEAR(y[1], 0.0, 1e-12);
  EXPECT_NEAR(y[2], 1.224744871, 1e-8);
  const std::vector<float> gamma{2, 1, 1}, beta{0, 0, 1};
  layernorm_reference(x.data(), gamma.data(), beta.data(), y.data(), 1, 3, 1.0f / 3);
  EXPECT_NEAR(y[0], -2.0, 1e-7);  // eps 1/3: sqrt(2/3 + 1/3) = 1
  EXPECT_NEAR(y[2], 2.0, 1e-7);
}

TEST(RowwiseReference, RmsnormByHand) {
  // mean(x^2) = (9 + 16) / 2 = 12.5: y = {3, 4} / 3.5355 * {1, 2}.
  const std::vector<float> x{3, 4}, gamma{1, 2};
  std::vector<double> y(2);
  rmsnorm_reference(x.data(), gamma.data(), y.data(), 1, 2, 0.0f);
  EXPECT_NEAR(y[0], 0.848528137, 1e-8);
  EXPECT_NEAR(y[1], 2.262741700, 1e-8);
}

TEST(RowwiseReference, EltwiseChainByHand) {
  const std::vector<float> x{2.0f, -3.0f};
  std::vector<double> y(2);
  eltwise_chain_reference(x.data(), y.data(), 2, 4);
  const double a = 2.0 * double{1.0001f} + 0.5;               // op 0
  EXPECT_NEAR(y[0], a * double{0.999f} * -0.5 + 1.0, 1e-12);  // relu passes, ops 2, 3
  eltwise_chain_reference(x.data(), y.data(), 2, 2);
  EXPECT_EQ(y[1], 0.0);  // -3 * 1.0001 + 0.5 < 0: relu
  eltwise_chain_reference(x.data(), y.data(), 2, 5);
  EXPECT_NEAR(y[1], 1.0 * double{1.0001f} + 0.5, 1e-12);  // 0 after ops 1..3 is 1, then op 0
}

TEST(RowwiseFlops, EltwiseChainFlopsPerElement) {
  // Kinds cycle fma (2), max (1), mul (1), fma (2).
  const std::pair<int, double> expected[] = {{1, 2}, {2, 3},  {3, 4},  {4, 6},
                                             {5, 8}, {7, 10}, {8, 12}, {32, 48}};
  for (auto [L, flops] : expected) EXPECT_EQ(eltwise_chain_flops_per_element(L), flops) << L;
}

TEST(RowwiseArguments, ScratchSizesAndBadInput) {
  EXPECT_EQ(softmax_unfused_scratch(3, 5), 3u * 5 + 2 * 3);
  EXPECT_EQ(layernorm_unfused_scratch(3, 5), 3u * 5 + 2 * 3);
  EXPECT_EQ(rmsnorm_unfused_scratch(3, 5), 3u * 5 + 3);
  float x = 1, y = 7;
  EXPECT_THROW(softmax_fused(&x, &y, -1, 1, 1), std::invalid_argument);
  EXPECT_THROW(softmax_fused(&x, &y, 1, 1, 0), std::invalid_argument);
  EXPECT_THROW(eltwise_chain_fused(&x, &y, 1, 0, 1), std::invalid_argument);
  EXPECT_THROW(eltwise_chain_unfused(&x, &y, 1, 33, 1), std::invalid_argument);
  softmax_fused(&x, &y, 0, 1, 1);  // nothing to do: y untouched
  EXPECT_EQ(y, 7.0f);
  const CpuFeatures& cpu = cpu_features();
#if defined(__x86_64__)
  EXPECT_EQ(rowwise_fused_isa(),
            cpu.has_avx512() ? "avx512" : (cpu.has_avx2_fma() ? "avx2" : "scalar"));
#else
  // SVE's unit runs at a 256-bit vector length only.
  EXPECT_EQ(rowwise_fused_isa(),
            cpu.sve && cpu.sve_bits == 256 ? "sve" : (cpu.neon ? "neon" : "scalar"));
#endif
}

// ---- fused and unfused, per ISA, against the references ----

struct Impl {
  Isa isa;
  bool fused;
  friend void PrintTo(const Impl& i, std::ostream* os) {
    *os << to_string(i.isa) << (i.fused ? " fused" : " unfused");
  }
};

std::string impl_name(const ::testing::TestParamInfo<Impl>& info) {
  return std::string(to_string(info.param.isa)) + (info.param.fused ? "_fused" : "_unfused");
}

class RowwiseOps : public ::testing::TestWithParam<Impl> {
 protected:
  void SetUp() override {
    if (!isa_available(GetParam().isa))
      GTEST_SKIP() << "this CPU has no " << to_string(GetParam().isa) << " (CPUID)";
  }
  // y := softmax(x) by the implementation under test; the unfused scratch is guarded too.
  void softmax(const std::vector<float>& x, Guarded& y, std::int64_t rows, std::int64_t cols,
               int threads) {
    const Impl p = GetParam();
    if (p.fused) return softmax_fused_isa(p.isa, x.data(), y.data(), rows, cols, threads);
    Guarded scratch(softmax_unfused_scratch(rows, cols), kNaN);
    softmax_unfused_isa(p.isa, x.data(), y.data(), scratch.data(), rows, cols, threads);
    EXPECT_TRUE(scratch.intact()) << "wrote past the scratch it asked for";
  }
};

TEST_P(RowwiseOps, SoftmaxMatchesReference) {
  for (std::int64_t rows : kRows)
    for (std::int64_t cols : kCols) {
      const std::size_t n = static_cast<std::size_t>(rows * cols);
      const auto x = normal(n, 0.0f, 4.0f, static_cast<unsigned>(n));  // exp spans e^+-30
      std::vector<double> ref(n);
      softmax_reference(x.data(), ref.data(), rows, cols);
      for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << rows << " x " << cols << ", threads " << threads);
        Guarded y(n, kNaN);
        softmax(x, y, rows, cols, threads);
        EXPECT_LE(worst_row_error(y, ref, rows, cols), kSoftmaxTol);
        EXPECT_TRUE(y.intact()) << "wrote past the end of y";
      }
    }
}

TEST_P(RowwiseOps, NormsMatchReference) {
  const Impl p = GetParam();
  for (std::int64_t rows : kRows)
    for (std::int64_t cols : kCols) {
      const std::size_t n = static_cast<std::size_t>(rows * cols);
      const auto x = normal(n, 0.5f, 2.0f, static_cast<unsigned>(n));
      const auto gamma = normal(static_cast<std::size_t>(cols), 1.0f, 0.5f, 7);
      const auto beta = normal(static_cast<std::size_t>(cols), 0.0f, 1.0f, 8);
      const float eps = 1e-5f;
      std::vector<double> ln_ref(n), rms_ref(n);
      layernorm_reference(x.data(), gamma.data(), beta.data(), ln_ref.data(), rows, cols, eps);
      rmsnorm_reference(x.data(), gamma.data(), rms_ref.data(), rows, cols, eps);
      for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << rows << " x " << cols << ", threads " << threads);
        Guarded ln(n, kNaN), rms(n, kNaN);
        if (p.fused) {
          layernorm_fused_isa(p.isa, x.data(), gamma.data(), beta.data(), ln.data(), rows, cols,
                              eps, threads);
          rmsnorm_fused_isa(p.isa, x.data(), gamma.data(), rms.data(), rows, cols, eps, threads);
        } else {
          Guarded s1(layernorm_unfused_scratch(rows, cols), kNaN);
          Guarded s2(rmsnorm_unfused_scratch(rows, cols), kNaN);
          layernorm_unfused_isa(p.isa, x.data(), gamma.data(), beta.data(), ln.data(), s1.data(),
                                rows, cols, eps, threads);
          rmsnorm_unfused_isa(p.isa, x.data(), gamma.data(), rms.data(), s2.data(), rows, cols, eps,
                              threads);
          EXPECT_TRUE(s1.intact() && s2.intact()) << "wrote past the scratch it asked for";
        }
        EXPECT_LE(worst_row_error(ln, ln_ref, rows, cols), kNormTol) << "layernorm";
        EXPECT_LE(worst_row_error(rms, rms_ref, rows, cols), kNormTol) << "rmsnorm";
        EXPECT_TRUE(ln.intact() && rms.intact()) << "wrote past the end of y";
      }
    }
}

// A mean 1000 times the spread: one-pass moments (E[x^2] - E[x]^2) would lose every digit.
TEST_P(RowwiseOps, LayernormWithLargeMean) {
  const Impl p = GetParam();
  const std::int64_t rows = 3, cols = 1000;
  const auto x = normal(rows * cols, 1000.0f, 1.0f, 11);
  const std::vector<float> gamma(cols, 1.0f), beta(cols, 0.0f);
  std::vector<double> ref(rows * cols);
  layernorm_reference(x.data(), gamma.data(), beta.data(), ref.data(), rows, cols, 1e-5f);
  Guarded y(rows * cols, kNaN), scratch(layernorm_unfused_scratch(rows, cols), kNaN);
  if (p.fused)
    layernorm_fused_isa(p.isa, x.data(), gamma.data(), beta.data(), y.data(), rows, cols, 1e-5f, 2);
  else
    layernorm_unfused_isa(p.isa, x.data(), gamma.data(), beta.data(), y.data(), scratch.data(),
                          rows, cols, 1e-5f, 2);
  // The f32 mean alone is off by up to 2^-24 * 1000 = 6e-5 spreads; measured 5e-5 here, where
  // E[x^2] - E[x]^2 in f32 would be off by whole spreads.
  EXPECT_LE(worst_row_error(y, ref, rows, cols), 100 * kNormTol);
}

TEST_P(RowwiseOps, SoftmaxExtremeInputs) {
  const std::int64_t cols = 19;  // a full vector and a tail for both widths
  std::vector<float> x(4 * cols, 0.0f);
  x[0] = 1e30f;  // row 0: one huge, one hugely negative, the rest 0
  x[1] = -1e30f;
  for (std::int64_t c = 0; c < cols; ++c) x[cols + c] = 3.25f;      // row 1: all equal
  for (std::int64_t c = 0; c < cols; ++c) x[2 * cols + c] = -kInf;  // row 2: -inf but one
  x[2 * cols + 17] = -2.0f;
  for (std::int64_t c = 0; c < cols; ++c) x[3 * cols + c] = c % 2 ? 1e30f : -1e30f;  // row 3
  for (int threads : {1, 2}) {
    Guarded y(x.size(), kNaN);
    softmax(x, y, 4, cols, threads);
    for (std::int64_t r = 0; r < 4; ++r) {
      double sum = 0;
      for (std::int64_t c = 0; c < cols; ++c) {
        ASSERT_TRUE(std::isfinite(y[r * cols + c])) << "row " << r << " col " << c;
        sum += y[r * cols + c];
      }
      EXPECT_NEAR(sum, 1.0, 1e-6) << "row " << r;
    }
    EXPECT_EQ(y[0], 1.0f);
    EXPECT_EQ(y[1], 0.0f);
    EXPECT_NEAR(y[cols + 5], 1.0 / cols, 1e-7);
    EXPECT_EQ(y[2 * cols + 17], 1.0f);
    EXPECT_EQ(y[2 * cols + 3], 0.0f);
    EXPECT_NEAR(y[3 * cols + 1], 1.0 / (cols / 2), 1e-7);  // 9 equal maxima
    EXPECT_EQ(y[3 * cols + 2], 0.0f);
  }
}

TEST_P(RowwiseOps, EltwiseChainMatchesReference) {
  const Impl p = GetParam();
  // 2 * 16384 + 21: three thread chunks of the fused code, a vector tail in the last.
  for (std::int64_t n : {1, 15, 17, 1000, 2 * 16384 + 21}) {
    auto x = normal(static_cast<std::size_t>(n), 0.0f, 3.0f, static_cast<unsigned>(n));
    x[0] = n > 1 ? 3.0e38f : -3.0e38f;  // the largest magnitudes stay finite
    for (int L : {1, 2, 3, 4, 7, 32}) {
      std::vector<double> ref(static_cast<std::size_t>(n));
      eltwise_chain_reference(x.data(), ref.data(), n, L);
      for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << "n " << n << ", L " << L << ", threads " << threads);
        Guarded y(static_cast<std::size_t>(n), kNaN);
        if (p.fused)
          eltwise_chain_fused_isa(p.isa, x.data(), y.data(), n, L, threads);
        else
          eltwise_chain_unfused_isa(p.isa, x.data(), y.data(), n, L, threads);
        int bad = 0;
        for (std::int64_t i = 0; i < n; ++i) {
          const bool ok = std::isfinite(y[i]) && std::fabs(y[i] - ref[i]) <= chain_tol(L, x[i]);
          if (!ok && ++bad <= 3)
            ADD_FAILURE() << "y[" << i << "] = " << y[i] << ", reference " << ref[i];
        }
        EXPECT_TRUE(y.intact()) << "wrote past the end of y";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Rowwise, RowwiseOps,
                         ::testing::Values(Impl{Isa::avx512, true}, Impl{Isa::avx512, false},
                                           Impl{Isa::avx2, true}, Impl{Isa::avx2, false},
                                           Impl{Isa::neon, true}, Impl{Isa::neon, false},
                                           Impl{Isa::sve, true}, Impl{Isa::sve, false},
                                           Impl{Isa::scalar, true}, Impl{Isa::scalar, false}),
                         impl_name);

// ---- the vector exp ----

class RowwiseExp : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!isa_available(GetParam()))
      GTEST_SKIP() << "this CPU has no " << to_string(GetParam()) << " (CPUID)";
  }
};

// Distance in representable floats (both finite and of one sign here).
double ulps(float a, double exact) {
  const float e = static_cast<float>(exact);
  return std::fabs(static_cast<double>(a) - exact) / std::fabs(std::nextafter(e, kInf) - e);
}

TEST_P(RowwiseExp, AccurateOverTheRangeAndZeroBelow) {
  // Every 2^-10 from near the underflow limit (-87.3365) to 88, plus the values a softmax meets
  // most: [-10, 0]. Below -126.5 ln 2 (-87.68) the result is 0.
  std::vector<float> x;
  for (float v = -87.33f; v <= 88.0f; v += 0x1p-10f) x.push_back(v);
  const std::size_t dense = x.size();
  x.insert(x.end(), {-87.7f, -100.0f, -1e30f, -kInf, 0.0f, -0.0f});
  std::vector<float> y(x.size(), kNaN);
  exp_isa(GetParam(), x.data(), y.data(), static_cast<std::int64_t>(x.size()));
  double worst = 0;
  float worst_x = 0;
  for (std::size_t i = 0; i < dense; ++i) {
    const double u = ulps(y[i], std::exp(static_cast<double>(x[i])));
    if (!(u <= worst)) worst = u, worst_x = x[i];
  }
  EXPECT_LE(worst, 2.0) << "at x = " << worst_x;
  for (std::size_t i = dense; i < dense + 4; ++i) EXPECT_EQ(y[i], 0.0f) << x[i];
  EXPECT_EQ(y[dense + 4], 1.0f);
  EXPECT_EQ(y[dense + 5], 1.0f);
  // Between -87.68 and ln FLT_MIN: p * 2^-126, a subnormal within a few of its ulps (2^-149).
  std::vector<float> low;
  for (float v = -87.68f; v < -87.34f; v += 0x1p-12f) low.push_back(v);
  std::vector<float> ylow(low.size(), kNaN);
  exp_isa(GetParam(), low.data(), ylow.data(), static_cast<std::int64_t>(low.size()));
  for (std::size_t i = 0; i < low.size(); ++i)
    EXPECT_NEAR(ylow[i], std::exp(static_cast<double>(low[i])), 4 * 0x1p-149) << low[i];
}

// AVX-512 applies 2^n with vscalefps, AVX2 multiplies by 2^n built from its bits: the same
// arithmetic otherwise, and an exact power of two with one rounding either way, so the same
// bits, the subnormal results and the underflow to 0 included.
TEST(RowwiseExpBits, Avx512ScalefMatchesAvx2Multiply) {
  for (Isa isa : {Isa::avx512, Isa::avx2})
    if (!isa_available(isa)) GTEST_SKIP() << "this CPU has no " << to_string(isa) << " (CPUID)";
  std::vector<float> x;
  for (float v = -88.5f; v <= 88.0f; v += 0x1p-9f) x.push_back(v);
  std::vector<float> y512(x.size()), y256(x.size());
  const auto n = static_cast<std::int64_t>(x.size());
  exp_isa(Isa::avx512, x.data(), y512.data(), n);
  exp_isa(Isa::avx2, x.data(), y256.data(), n);
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint32_t>(y512[i]), std::bit_cast<std::uint32_t>(y256[i]))
        << "x = " << x[i];
}

INSTANTIATE_TEST_SUITE_P(Rowwise, RowwiseExp,
                         ::testing::Values(Isa::avx512, Isa::avx2, Isa::sve, Isa::neon,
                                           Isa::scalar),
                         [](const ::testing::TestParamInfo<Isa>& i) {
                           return std::string(to_string(i.param));
                         });

}  // namespace
}  // namespace ridgeline::ops
