// The attention op: its reference against a textbook computation and known answers, the
// fused kernel per ISA and both catalog kernels against the reference on awkward shapes,
// the validation's verdicts, and the unfused kernel's memory check.
#include "ridgeline/core/ops/attention.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../support/op_cases.hpp"
#include "attention_test_support.hpp"
#include "onednn/onednn_ops.hpp"
#include "ops/attention_ops.hpp"
#include "ops/attention_unfused.hpp"
#include "reference/attention_reference.hpp"
#include "ridgeline/core/ops/attention.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

using ops::Isa;
using test::builtin_catalog;

using attention_testing::expect_validation_catches_a_wrong_and_an_unwritten_output;
using attention_testing::filled;
using attention_testing::kShapes;
using attention_testing::make;

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = dist(rng);
  return x;
}

}  // namespace

// ---- the reference ----

TEST(AttentionReference, MatchesATextbookComputation) {
  for (bool causal : {false, true}) {
    const std::int64_t n = 9, d = 5;
    const auto q = random_floats(n * d, 1), k = random_floats(n * d, 2),
               v = random_floats(n * d, 3);
    // The whole score matrix, the mask, a row softmax and a matrix product, in long double.
    std::vector<long double> s(n * n), o(n * d, 0.0L);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        long double dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += (long double)q[i * d + c] * k[j * d + c];
        s[i * n + j] = causal && j > i ? -INFINITY : dot / std::sqrt((long double)d);
      }
    for (std::int64_t i = 0; i < n; ++i) {
      long double mx = -INFINITY, sum = 0;
      for (std::int64_t j = 0; j < n; ++j) mx = std::max(mx, s[i * n + j]);
      for (std::int64_t j = 0; j < n; ++j) sum += std::exp(s[i * n + j] - mx);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t c = 0; c < d; ++c)
          o[i * d + c] += std::exp(s[i * n + j] - mx) / sum * v[j * d + c];
    }
    std::vector<double> out(d), mag(d);
    for (std::int64_t i = 0; i < n; ++i) {
      attention_reference_row({q.data(), k.data(), v.data(), n, d, causal}, i, out.data(),
                              mag.data());
      for (std::int64_t c = 0; c < d; ++c) {
        EXPECT_NEAR(out[c], (double)o[i * d + c], 1e-13) << "causal " << causal << " row " << i;
        EXPECT_GE(mag[c], std::fabs(out[c]) * (1 - 1e-15));
      }
    }
  }
}

TEST(AttentionReference, KnownAnswers) {
  const std::int64_t n = 6, d = 3;
  const auto k = random_floats(n * d, 4), v = random_floats(n * d, 5);
  const std::vector<float> zeros(n * d, 0.0f);
  std::vector<double> out(d), mag(d);
  // Q = 0: every visible key weighs the same, so row i is the mean of the V rows it sees.
  for (bool causal : {false, true})
    for (std::int64_t i = 0; i < n; ++i) {
      attention_reference_row({zeros.data(), k.data(), v.data(), n, d, causal}, i, out.data(),
                              mag.data());
      const std::int64_t seen = causal ? i + 1 : n;
      for (std::int64_t c = 0; c < d; ++c) {
        double mean = 0;
        for (std::int64_t j = 0; j < seen; ++j) mean += v[j * d + c];
        EXPECT_NEAR(out[c], mean / static_cast<double>(seen), 1e-12);
      }
    }
  // seq = 1: the only key has probability 1.
  attention_reference_row({k.data(), k.data(), v.data(), 1, d, false}, 0, out.data(), mag.data());
  for (std::int64_t c = 0; c < d; ++c) EXPECT_EQ(out[c], static_cast<double>(v[c]));
}

// ---- the fused kernel per ISA ----

std::string isa_name(const ::testing::TestParamInfo<Isa>& info) {
  return ops::to_string(info.param);
}

class AttentionFusedIsa : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!ops::isa_available(GetParam()))
      GTEST_SKIP() << "this CPU has no " << ops::to_string(GetParam()) << " (CPUID)";
  }
};

TEST_P(AttentionFusedIsa, AgreesWithTheReferenceAndStaysInItsScratch) {
  constexpr float kCanary = 12345.0f;
  for (const char* params : kShapes)
    for (int threads : {1, 2}) {
      const Problem p = make(params);
      const AttentionDims d = attention_dims(p);
      Operands ops = filled(p);
      const ops::AttentionArgs args{{d.batch * d.heads, d.seq, d.head_dim, d.causal},
                                    ops.at("Q").as<float>().data(),
                                    ops.at("K").as<float>().data(),
                                    ops.at("V").as<float>().data(),
                                    ops.at("O").as<float>().data()};
      const std::size_t need = ops::attention_fused_scratch(GetParam(), args.shape, threads);
      std::vector<float> scratch(need + 64, kCanary);
      ops::attention_fused_isa(GetParam(), args, scratch.data(), threads);
      for (std::size_t i = need; i < scratch.size(); ++i)
        ASSERT_EQ(scratch[i], kCanary) << params << ": wrote past the scratch it asked for";
      const Validation v = validate(p, ops, 3);
      EXPECT_EQ(v.disposition, Disposition::passed)
          << params << " threads=" << threads << ": " << v.message;
    }
}

INSTANTIATE_TEST_SUITE_P(Attention, AttentionFusedIsa,
                         ::testing::Values(Isa::avx512, Isa::avx2, Isa::sve, Isa::neon,
                                           Isa::scalar),
                         isa_name);

TEST(AttentionFused, RefusesWhatItCannotRun) {
  const ops::AttentionArgs none{};
  EXPECT_THROW(ops::attention_fused_isa(Isa::scalar, none, nullptr, 1), std::invalid_argument);
  EXPECT_THROW(
      ops::attention_fused_scratch(Isa::scalar, {1, ops::kAttentionMaxFusedSeq + 1, 64, false}, 1),
      std::invalid_argument);
  EXPECT_THROW(ops::attention_fused_scratch(Isa::scalar, {1, 8, 8, false}, 0),
               std::invalid_argument);
  auto fused = builtin_catalog().create("cpu.fused", "attention");
  ASSERT_TRUE(fused);
  const Support s = fused->supports(make("heads=1,seq=16777217,head_dim=1"), 1);
  EXPECT_FALSE(s);
  EXPECT_NE(s.reason.find("2^24"), std::string::npos) << s.reason;
}

// ---- the catalog kernels, as the runner runs them ----

TEST(AttentionKernels, FusedAndUnfusedPassTheReferenceOnAwkwardShapes) {
  if (!ops::AttentionUnfused::available())
    GTEST_SKIP() << "cpu.unfused runs the packed GEMM, which this CPU runs none of";
    // The forced AVX2 forms are an x86-64 build's alone.
#if defined(__x86_64__)
  for (const char* backend : {"cpu.fused", "cpu.unfused", "cpu.avx2_fused", "cpu.avx2_unfused"})
#else
  for (const char* backend : {"cpu.fused", "cpu.unfused"})
#endif
    for (const char* params : kShapes)
      for (int threads : {1, 2}) {
        auto kernel = builtin_catalog().create(backend, "attention");
        ASSERT_TRUE(kernel) << backend;
        const Problem p = make(params);
        // The forced AVX2 forms on a CPU without AVX2: refused with the reason, not run.
        if (std::string(backend).find("avx2") != std::string::npos &&
            !cpu_features().has_avx2_fma()) {
          EXPECT_NE(kernel->supports(p, threads).reason.find("does not run avx2"),
                    std::string::npos);
          continue;
        }
        ASSERT_TRUE(kernel->supports(p, threads)) << kernel->supports(p, threads).reason;
        Operands ops = filled(p);
        kernel->prepare(p, ops, threads);
        kernel->run();
        kernel->run();  // a second run overwrites, as the timed loop does
        const Validation v = validate(p, ops, 7);
        EXPECT_EQ(v.disposition, Disposition::passed)
            << backend << " " << params << " threads=" << threads << ": " << v.message;
        EXPECT_LE(v.max_rel_err, v.tolerance);
        EXPECT_EQ(v.method, params == attention_testing::kSampledShape ? "sampled rows" : "direct")
            << params;
      }
}

TEST(AttentionKernels, TheVendorAgreesWithTheReference) {
  if (const std::string why = ops::onednn_unavailable_reason(); !why.empty()) {
    if (RIDGELINE_ONEDNN_ENABLED) FAIL() << "built with oneDNN, yet: " << why;
    GTEST_SKIP() << why;
  }
  for (const char* params : {"heads=1,seq=1,head_dim=1", "heads=3,seq=131,head_dim=65,causal=1",
                             "batch=2,heads=2,seq=100,head_dim=17"})
    for (int threads : {1, 2}) {
      auto kernel = builtin_catalog().create("vendor.onednn", "attention");
      const Validation v = test::run_and_validate(*kernel, make(params), threads);
      EXPECT_EQ(v.disposition, Disposition::passed)
          << params << " threads=" << threads << ": " << v.message;
    }
}

TEST(AttentionKernels, RolesAndTheTrafficEachRecords) {
  const Problem p = make("heads=8,seq=512,head_dim=64,causal=1");
  const KernelInfo* fused = builtin_catalog().find("cpu.fused", "attention");
  const KernelInfo* unfused = builtin_catalog().find("cpu.unfused", "attention");
  ASSERT_TRUE(fused && unfused);
  EXPECT_EQ(fused->role, KernelRole::fused);
  // The AVX2-forced forms (an x86-64 build's): the same roles, f32 only.
#if defined(__x86_64__)
  for (const char* form : {"cpu.avx2_fused", "cpu.avx2_unfused"}) {
    const KernelInfo* k = builtin_catalog().find(form, "attention");
    ASSERT_TRUE(k) << form;
    EXPECT_EQ(k->dtypes, std::vector<DType>{DType::f32}) << form;
    EXPECT_EQ(k->role,
              std::string(form) == "cpu.avx2_fused" ? KernelRole::fused : KernelRole::unfused);
  }
#endif
  EXPECT_EQ(unfused->role, KernelRole::unfused);
  EXPECT_TRUE(fused->threaded && unfused->threaded);
  EXPECT_EQ(builtin_catalog().create("cpu.fused", "attention")->work(p), op_work(p));
  EXPECT_EQ(builtin_catalog().create("cpu.unfused", "attention")->work(p), op_unfused_work(p));
}

TEST(AttentionKernels, ValidationCatchesAWrongAndAnUnwrittenOutput) {
  expect_validation_catches_a_wrong_and_an_unwritten_output(DType::f32, [](Operands& ops) {
    ops.at("O").as<float>()[2 * 33 * 20 - 7] += 1e-3f;  // one output of the last row, off
  });
}

TEST(AttentionKernels, UnfusedRefusesScoresThatDoNotFitInMemory) {
  if (!ops::AttentionUnfused::available())
    GTEST_SKIP() << "cpu.unfused runs the packed GEMM, which this CPU runs none of";
  auto unfused = builtin_catalog().create("cpu.unfused", "attention");
  auto fused = builtin_catalog().create("cpu.fused", "attention");
  // 8 * 2^40 scores of 4 bytes, twice (64 TiB), and the scaled Q (2 GiB).
  const Problem huge = make("heads=8,seq=1048576,head_dim=64");
  const Support no = unfused->supports(huge, 1);
  EXPECT_FALSE(no);
  EXPECT_NE(no.reason.find("materialises the scores"), std::string::npos) << no.reason;
  EXPECT_NE(no.reason.find("70370891661312 bytes"), std::string::npos) << no.reason;
  EXPECT_NE(no.reason.find("memory available"), std::string::npos) << no.reason;
  EXPECT_EQ(no.reason.find('\n'), std::string::npos);
  EXPECT_TRUE(fused->supports(huge, 1)) << "the fused kernel never stores the scores";
  // heads * seq^2 * 4 beyond 64 bits.
  const Support overflow = unfused->supports(make("heads=1048576,seq=4294967296,head_dim=1"), 1);
  EXPECT_FALSE(overflow);
  EXPECT_NE(overflow.reason.find("overflow"), std::string::npos) << overflow.reason;
  EXPECT_TRUE(unfused->supports(make("heads=8,seq=512,head_dim=64"), 2));
}

}  // namespace ridgeline
