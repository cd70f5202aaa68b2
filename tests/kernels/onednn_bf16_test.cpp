// The oneDNN prepared ops in bf16 against the double-precision references on the same
// inputs: inputs are rounded to bf16 first, so the reference sees exactly what oneDNN read;
// outputs (bf16 for softmax and layernorm, f32 for the matmul) are widened and compared.
// A CPU on which oneDNN 2.6 cannot run bf16 skips with oneDNN's reason.
#include <gtest/gtest.h>

#include "onednn_test_support.hpp"
#include "ridgeline/core/dtype.hpp"

namespace ridgeline::ops {
namespace {

using namespace onednn_testing;

using Bits = std::vector<std::uint16_t>;

// x rounded to bf16: the bits oneDNN reads, and their exact f32 values for the reference.
struct Bf16Input {
  Bits bits;
  std::vector<float> values;
};

Bf16Input bf16_input(const std::vector<float>& x) {
  Bf16Input in;
  for (float v : x) {
    in.bits.push_back(to_bf16(v));
    in.values.push_back(from_bf16(in.bits.back()));
  }
  return in;
}

std::vector<float> widen(const Bits& bits) {
  std::vector<float> out;
  for (std::uint16_t b : bits) out.push_back(from_bf16(b));
  return out;
}

// An output rounded to bf16 is within half a bf16 ulp (2^-9 relative) of its f32 value;
// 2^-8 relative allows for oneDNN's f32 arithmetic before the rounding. oneDNN 2.6's bf16
// softmax is less exact (seen: 0.93 ulp off at 1x4096): 2^-7 for it.
constexpr double kBf16Rel = 1.0 / 256;
constexpr double kBf16SoftmaxRel = 1.0 / 128;

#define SKIP_UNLESS_PREPARED(p) \
  if (!(p)) GTEST_SKIP() << "oneDNN cannot run this in bf16 here: " << (p).support.reason

TEST(OnednnBf16, SoftmaxMatchesTheReference) {
  REQUIRE_ONEDNN();
  for (auto [rows, cols] : kRowShapes)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " threads=" << threads);
      auto p = OnednnSoftmax::create(rows, cols, threads, DType::bf16);
      SKIP_UNLESS_PREPARED(p);
      const Bf16Input x = bf16_input(random_vector(rows * cols, -8, 8, 1));
      Bits y(x.bits.size(), 0x7fc0);  // NaN until written
      p.op->execute(x.bits.data(), y.data());
      expect_close(widen(y), softmax_ref(x.values, rows, cols), 1e-9, kBf16SoftmaxRel);
    }
}

TEST(OnednnBf16, LayerNormMatchesTheReference) {
  REQUIRE_ONEDNN();
  const float eps = 1e-5f;
  for (auto [rows, cols] : kRowShapes)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " threads=" << threads);
      auto p = OnednnLayerNorm::create(rows, cols, eps, false, threads, DType::bf16);
      SKIP_UNLESS_PREPARED(p);
      const Bf16Input x = bf16_input(random_vector(rows * cols, -3, 5, 1));
      const Bf16Input g = bf16_input(random_vector(cols, 0.5, 2, 11));
      const Bf16Input b = bf16_input(random_vector(cols, -1, 1, 21));
      Bits y(x.bits.size(), 0x7fc0);
      p.op->execute(x.bits.data(), g.bits.data(), b.bits.data(), y.data());
      expect_close(widen(y), layernorm_ref(x.values, g.values, b.values, rows, cols, eps), 2e-6,
                   kBf16Rel);
    }
}

// bf16 products are exact in f32 and accumulate there: the f32 bound of the f32 test holds.
TEST(OnednnBf16, MatmulBiasActMatchesTheReference) {
  REQUIRE_ONEDNN();
  struct Mnk {
    std::int64_t m, n, k;
  };
  for (Mnk s : {Mnk{1, 1, 1}, Mnk{7, 33, 13}, Mnk{37, 53, 301}})
    for (Activation act : {Activation::relu, Activation::gelu_tanh})
      for (int threads : {1, 2}) {
        SCOPED_TRACE(::testing::Message() << s.m << "x" << s.n << "x" << s.k << " "
                                          << to_string(act) << " threads=" << threads);
        auto p = OnednnMatmulBiasAct::create(s.m, s.n, s.k, act, threads, DType::bf16);
        SKIP_UNLESS_PREPARED(p);
        const Bf16Input a = bf16_input(random_vector(s.m * s.k, -1, 1, 1));
        const Bf16Input b = bf16_input(random_vector(s.k * s.n, -1, 1, 11));
        const Bf16Input bias = bf16_input(random_vector(s.n, -1, 1, 21));
        std::vector<float> c(s.m * s.n, NAN);
        p.op->execute(a.bits.data(), b.bits.data(), bias.bits.data(), c.data());
        std::vector<double> ref(c.size());
        double worst = 0;
        for (std::int64_t i = 0; i < s.m; ++i)
          for (std::int64_t j = 0; j < s.n; ++j) {
            double acc = bias.values[j], mag = std::abs(acc);
            for (std::int64_t l = 0; l < s.k; ++l) {
              const double t = double(a.values[i * s.k + l]) * b.values[l * s.n + j];
              acc += t;
              mag += std::abs(t);
            }
            ref[i * s.n + j] = act == Activation::relu ? std::max(acc, 0.0) : gelu_tanh(acc);
            worst = std::max(worst, mag);
          }
        expect_close(c, ref, 2e-6 * worst + 1e-6, 0);
      }
}

TEST(OnednnBf16, OtherDtypesAreRefusedWithTheReason) {
  REQUIRE_ONEDNN();
  for (const Support& s :
       {OnednnSoftmax::create(4, 4, 1, DType::f16).support,
        OnednnLayerNorm::create(4, 4, 1e-5f, false, 1, DType::f64).support,
        OnednnMatmulBiasAct::create(4, 4, 4, Activation::relu, 1, DType::i8).support}) {
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("take f32 or bf16"), std::string::npos) << s.reason;
  }
}

}  // namespace
}  // namespace ridgeline::ops
