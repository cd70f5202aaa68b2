// The oneDNN prepared ops (kernels/src/onednn) against textbook double-precision references
// written here, on awkward shapes, each executed twice on different buffers (the second
// call must not reuse the first call's data). Built without oneDNN, the stub must say why;
// built with it, nothing may skip.
#include <gtest/gtest.h>
#include <omp.h>

#include <iostream>

#include "onednn_test_support.hpp"

namespace ridgeline::ops {
namespace {

using namespace onednn_testing;

// ---- availability -------------------------------------------------------------------------

TEST(OnednnAvailability, MatchesTheBuild) {
  const std::string why = onednn_unavailable_reason();
  if (RIDGELINE_ONEDNN_ENABLED) {
    EXPECT_EQ(why, "");
    EXPECT_EQ(onednn_version().rfind("oneDNN ", 0), 0u) << onednn_version();
    EXPECT_NE(onednn_version().find("cpu runtime"), std::string::npos) << onednn_version();
    std::cout << onednn_version() << "\n";
    return;
  }
  EXPECT_NE(why, "");
  EXPECT_EQ(onednn_version(), "");
  for (const Support& s : {OnednnSoftmax::create(4, 4, 1).support,
                           OnednnLayerNorm::create(4, 4, 1e-5f, false, 1).support,
                           OnednnMatmulBiasAct::create(4, 4, 4, Activation::relu, 1).support,
                           OnednnAttention::create(1, 1, 4, 4, false, 1 << 20, 1).support}) {
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find(why), std::string::npos) << s.reason;
  }
}

TEST(OnednnAvailability, RefusesBadArgumentsWithAReason) {
  REQUIRE_ONEDNN();
  for (const Support& s :
       {OnednnSoftmax::create(0, 4, 1).support, OnednnSoftmax::create(4, 4, 0).support,
        OnednnLayerNorm::create(4, -1, 1e-5f, false, 1).support,
        OnednnLayerNorm::create(4, 4, 0.0f, false, 1).support,
        OnednnMatmulBiasAct::create(4, 0, 4, Activation::relu, 1).support,
        OnednnAttention::create(1, 1, 0, 4, false, 1 << 20, 1).support}) {
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason, "");
  }
}

TEST(OnednnAvailability, LeavesTheCallersOpenmpThreadsAsTheyWere) {
  REQUIRE_ONEDNN();
  const int before = omp_get_max_threads();
  const int other = before == 1 ? 2 : 1;
  auto p = OnednnSoftmax::create(8, 8, other);
  ASSERT_TRUE(p) << p.support.reason;
  EXPECT_EQ(omp_get_max_threads(), before);
  std::vector<float> x(64, 1.0f), y(64);
  p.op->execute(x.data(), y.data());
  EXPECT_EQ(omp_get_max_threads(), before);
}

// ---- softmax ------------------------------------------------------------------------------

// oneDNN's exp is a polynomial; 2e-6 relative (about 17 float ulps) and 1e-9 absolute (for
// tiny probabilities) hold with room to spare and still catch a wrong axis or max.
TEST(OnednnSoftmax, MatchesTheReference) {
  REQUIRE_ONEDNN();
  for (auto [rows, cols] : kRowShapes)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " threads=" << threads);
      auto p = OnednnSoftmax::create(rows, cols, threads);
      ASSERT_TRUE(p) << p.support.reason;
      for (unsigned seed : {1u, 2u}) {
        const auto x = random_vector(rows * cols, -8, 8, seed);
        std::vector<float> y(x.size(), NAN);
        p.op->execute(x.data(), y.data());
        expect_close(y, softmax_ref(x, rows, cols), 1e-9, 2e-6);
      }
    }
}

TEST(OnednnSoftmax, RunsInPlace) {
  REQUIRE_ONEDNN();
  auto p = OnednnSoftmax::create(7, 33, 2);
  ASSERT_TRUE(p) << p.support.reason;
  auto x = random_vector(7 * 33, -8, 8, 3);
  const auto ref = softmax_ref(x, 7, 33);
  p.op->execute(x.data(), x.data());
  expect_close(x, ref, 1e-9, 2e-6);
}

// ---- layer normalization ------------------------------------------------------------------

// Outputs are O(1): 2e-6 absolute + 2e-6 relative (~17 ulps) covers f32 statistics over
// 4096 columns (seen: a tenth of it) and catches a biased variance (1/(n-1)) at n = 33.
TEST(OnednnLayerNorm, MatchesTheReference) {
  REQUIRE_ONEDNN();
  const float eps = 1e-5f;
  for (auto [rows, cols] : kRowShapes)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " threads=" << threads);
      auto p = OnednnLayerNorm::create(rows, cols, eps, false, threads);
      ASSERT_TRUE(p) << p.support.reason;
      for (unsigned seed : {1u, 2u}) {
        const auto x = random_vector(rows * cols, -3, 5, seed);  // mean far from 0
        const auto g = random_vector(cols, 0.5, 2, seed + 10);
        const auto b = random_vector(cols, -1, 1, seed + 20);
        std::vector<float> y(x.size(), NAN);
        p.op->execute(x.data(), g.data(), b.data(), y.data());
        expect_close(y, layernorm_ref(x, g, b, rows, cols, eps), 2e-6, 2e-6);
      }
    }
}

TEST(OnednnLayerNorm, RefusesRmsNormWithTheReason) {
  REQUIRE_ONEDNN();
  auto p = OnednnLayerNorm::create(4, 8, 1e-5f, true, 1);
  EXPECT_FALSE(p);
  EXPECT_NE(p.support.reason.find("RMS"), std::string::npos) << p.support.reason;
}

// ---- matmul + bias + activation -----------------------------------------------------------

// f32 accumulation over k: |error| <= 2e-6 * (sum_k |a b| + |bias|) + 1e-6, about 17 ulps
// of the largest magnitude summed (seen: under a tenth of it); a missing bias or a wrong
// activation is off by O(1).
TEST(OnednnMatmulBiasAct, MatchesTheReference) {
  REQUIRE_ONEDNN();
  struct Mnk {
    std::int64_t m, n, k;
  };
  for (Mnk s : {Mnk{1, 1, 1}, Mnk{7, 33, 13}, Mnk{1, 257, 64}, Mnk{130, 1, 67}, Mnk{37, 53, 301}})
    for (Activation act : {Activation::relu, Activation::gelu_tanh})
      for (int threads : {1, 2}) {
        SCOPED_TRACE(::testing::Message() << s.m << "x" << s.n << "x" << s.k << " "
                                          << to_string(act) << " threads=" << threads);
        auto p = OnednnMatmulBiasAct::create(s.m, s.n, s.k, act, threads);
        ASSERT_TRUE(p) << p.support.reason;
        for (unsigned seed : {1u, 2u}) {
          const auto a = random_vector(s.m * s.k, -1, 1, seed);
          const auto b = random_vector(s.k * s.n, -1, 1, seed + 10);
          const auto bias = random_vector(s.n, -1, 1, seed + 20);
          std::vector<float> c(s.m * s.n, NAN);
          p.op->execute(a.data(), b.data(), bias.data(), c.data());
          std::vector<double> ref(c.size());
          double worst = 0;
          for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.n; ++j) {
              double acc = bias[j], mag = std::abs(bias[j]);
              for (std::int64_t l = 0; l < s.k; ++l) {
                acc += double(a[i * s.k + l]) * b[l * s.n + j];
                mag += std::abs(double(a[i * s.k + l]) * b[l * s.n + j]);
              }
              ref[i * s.n + j] = act == Activation::relu ? std::max(acc, 0.0) : gelu_tanh(acc);
              worst = std::max(worst, mag);
            }
          expect_close(c, ref, 2e-6 * worst + 1e-6, 0);
        }
      }
}

// ---- attention ----------------------------------------------------------------------------

std::vector<double> attention_ref(const std::vector<float>& q, const std::vector<float>& k,
                                  const std::vector<float>& v, std::int64_t bh, std::int64_t seq,
                                  std::int64_t d, bool causal) {
  std::vector<double> o(bh * seq * d, 0.0), p(seq);
  const double scale = 1 / std::sqrt(double(d));
  for (std::int64_t b = 0; b < bh; ++b)
    for (std::int64_t i = 0; i < seq; ++i) {
      const std::int64_t last = causal ? i : seq - 1;  // keys j <= last are seen
      double mx = -INFINITY, sum = 0;
      for (std::int64_t j = 0; j <= last; ++j) {
        double s = 0;
        for (std::int64_t t = 0; t < d; ++t)
          s += double(q[(b * seq + i) * d + t]) * k[(b * seq + j) * d + t];
        p[j] = s * scale;
        mx = std::max(mx, p[j]);
      }
      for (std::int64_t j = 0; j <= last; ++j) sum += p[j] = std::exp(p[j] - mx);
      for (std::int64_t j = 0; j <= last; ++j)
        for (std::int64_t t = 0; t < d; ++t)
          o[(b * seq + i) * d + t] += p[j] / sum * v[(b * seq + j) * d + t];
    }
  return o;
}

// O is a convex combination of V rows in [-1, 1]: 4e-6 absolute is ~30 ulps of 1 and
// catches a missing mask, scale or transposed K by orders of magnitude.
TEST(OnednnAttention, MatchesTheReference) {
  REQUIRE_ONEDNN();
  struct Case {
    std::int64_t batch, heads, seq, d;
    bool causal;
  };
  for (Case c : {Case{1, 1, 1, 1, false}, Case{1, 1, 1, 8, true}, Case{2, 3, 7, 5, false},
                 Case{1, 2, 37, 16, true}, Case{2, 1, 37, 64, false}, Case{1, 1, 64, 33, true}})
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << c.batch << "x" << c.heads << " seq=" << c.seq << " d="
                                        << c.d << " causal=" << c.causal << " threads=" << threads);
      auto p = OnednnAttention::create(c.batch, c.heads, c.seq, c.d, c.causal, 1 << 30, threads);
      ASSERT_TRUE(p) << p.support.reason;
      const std::int64_t n = c.batch * c.heads * c.seq * c.d;
      for (unsigned seed : {1u, 2u}) {
        const auto q = random_vector(n, -2, 2, seed), k = random_vector(n, -2, 2, seed + 10),
                   v = random_vector(n, -1, 1, seed + 20);
        std::vector<float> o(n, NAN);
        p.op->execute(q.data(), k.data(), v.data(), o.data());
        expect_close(o, attention_ref(q, k, v, c.batch * c.heads, c.seq, c.d, c.causal), 4e-6, 0);
      }
    }
}

// The causal score matmul runs per (batch, head) because oneDNN 2.6's brgemm matmul cannot
// broadcast the mask over batch*heads and falls back to its reference code (ref:any); on a
// CPU where brgemm runs (AVX-512), no step of the chain may be a reference implementation.
TEST(OnednnAttention, AvoidsReferenceImplementations) {
  REQUIRE_ONEDNN();
  if (onednn_version().find("isa avx512_core") == std::string::npos)
    GTEST_SKIP() << "oneDNN's brgemm matmul needs avx512_core: " << onednn_version();
  for (bool causal : {false, true}) {
    auto p = OnednnAttention::create(2, 3, 37, 16, causal, 1 << 30, 2);
    ASSERT_TRUE(p) << p.support.reason;
    EXPECT_EQ(p.op->implementation().find("ref"), std::string::npos) << p.op->implementation();
  }
}

TEST(OnednnAttention, RefusesScoresOverTheBudget) {
  REQUIRE_ONEDNN();
  const std::size_t scores = 2 * 3 * 37 * 37 * sizeof(float);
  auto fits = OnednnAttention::create(2, 3, 37, 8, true, scores, 1);
  ASSERT_TRUE(fits) << fits.support.reason;
  EXPECT_EQ(fits.op->workspace_bytes(), scores + 37 * 37 * sizeof(float));  // + the mask
  auto over = OnednnAttention::create(2, 3, 37, 8, true, scores - 1, 1);
  EXPECT_FALSE(over);
  EXPECT_NE(over.support.reason.find("budget"), std::string::npos) << over.support.reason;
  auto huge = OnednnAttention::create(1 << 20, 1 << 20, 1 << 20, 1, false, SIZE_MAX, 1);
  EXPECT_FALSE(huge);
  EXPECT_NE(huge.support.reason, "");
}

}  // namespace
}  // namespace ridgeline::ops
