// gemm_bias_act: the long-double reference against hand computations and its validation; the
// catalog's cpu.fused and cpu.unfused on awkward shapes (both activations, 1 and 2 threads);
// the packed driver's epilogue and the unfused passes for every ISA this CPU runs (the
// catalog picks only the best one); the vector activations' accuracy over their range.
// bf16: gemm_bias_act_bf16_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cpu/packed_gemm.hpp"
#include "gemm_bias_act_test_support.hpp"
#include "reference/gemm_bias_act_validation.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/validation.hpp"

namespace ridgeline {

namespace {

using ops::Activation;

Problem make(const std::string& params, const char* act) {
  return test::make_gemm_bias_act(params, act);
}

using test::filled;
using test::gelu_by_hand;

}  // namespace

TEST(GemmBiasActReference, ActivationsByHand) {
  EXPECT_NEAR(static_cast<double>(activation_reference(Activation::gelu_tanh, 1.0L)),
              0.8411919906082768, 1e-15);
  EXPECT_NEAR(static_cast<double>(activation_reference(Activation::gelu_tanh, -1.0L)),
              -0.15880800939172324, 1e-15);
  EXPECT_EQ(activation_reference(Activation::gelu_tanh, 0.0L), 0.0L);
  EXPECT_EQ(activation_reference(Activation::relu, -2.5L), 0.0L);
  EXPECT_EQ(activation_reference(Activation::relu, 3.25L), 3.25L);
}

TEST(GemmBiasActReference, EntriesMatchTheTextbookFormula) {
  // A = [1 2; 3 -4], B = [0.5 -1 2; 1 0 -3], bias = [1, -2, 0.25]:
  // A B + bias = [3.5 -3 -3.75; -1.5 -5 18.25].
  const std::vector<float> a{1, 2, 3, -4}, b{0.5f, -1, 2, 1, 0, -3}, bias{1, -2, 0.25f};
  const double z[2][3] = {{3.5, -3, -3.75}, {-1.5, -5, 18.25}};
  const double scale[2][3] = {{3.5, 3, 8.25}, {6.5, 5, 18.25}};
  for (Activation act : {Activation::relu, Activation::gelu_tanh})
    for (std::int64_t i = 0; i < 2; ++i) {
      std::vector<ReferenceEntry> row;
      gemm_bias_act_reference({a.data(), b.data(), bias.data(), 2, 3, 2, act}, i, 0, 3, row);
      ASSERT_EQ(row.size(), 3u);
      for (int j = 0; j < 3; ++j) {
        const double want =
            act == Activation::relu ? std::max(z[i][j], 0.0) : gelu_by_hand(z[i][j]);
        EXPECT_NEAR(static_cast<double>(row[j].value), want, 1e-14) << i << "," << j;
        EXPECT_EQ(static_cast<double>(row[j].scale), scale[i][j]) << i << "," << j;
      }
      std::vector<ReferenceEntry> one;  // a range of one entry says the same
      gemm_bias_act_reference({a.data(), b.data(), bias.data(), 2, 3, 2, act}, i, 2, 3, one);
      ASSERT_EQ(one.size(), 1u);
      EXPECT_EQ(one[0].value, row[2].value);
      for (int j = 0; j < 3; ++j) {  // and so does one entry from B's column
        const float column[2] = {b[static_cast<std::size_t>(j)],
                                 b[static_cast<std::size_t>(3 + j)]};
        const ReferenceEntry e = gemm_bias_act_reference_entry(
            {a.data(), b.data(), bias.data(), 2, 3, 2, act}, column, i, j);
        EXPECT_EQ(e.value, row[j].value) << i << "," << j;
        EXPECT_EQ(e.scale, row[j].scale) << i << "," << j;
      }
    }
}

TEST(GemmBiasActReference, ValidationPassesTheTextbookAndCatchesWrongOrUnwrittenEntries) {
  // 37x53x19 is checked entry by entry, 256x256x1024 (above kDirectCheckLimit) on edges and
  // samples.
  for (const char* params : {"m=37,n=53,k=19", "m=256,n=256,k=1024"})
    for (const char* act : {"relu", "gelu_tanh"}) {
      const Problem p = make(params, act);
      Operands ops = filled(p);
      const Validation unwritten = validate(p, ops, 1);
      EXPECT_EQ(unwritten.disposition, Disposition::incorrect);
      EXPECT_NE(unwritten.message.find("never written"), std::string::npos) << unwritten.message;

      const std::vector<double> ref = test::gemm_bias_act_by_hand(p, ops);
      auto c = ops.at("C").as<float>();
      for (std::size_t e = 0; e < c.size(); ++e) c[e] = static_cast<float>(ref[e]);
      const Validation v = validate(p, ops, 1);
      EXPECT_EQ(v.disposition, Disposition::passed) << params << " " << act << ": " << v.message;
      EXPECT_EQ(v.method, std::string(params) == "m=37,n=53,k=19" ? "direct" : "edges+sampled");
      EXPECT_EQ(v.tolerance, op_definition(p.op).tolerance(p));
      EXPECT_LT(v.max_rel_err, 1e-7) << "f32 rounding of the textbook result only";

      // The last entry (an edge tile's corner, always checked), off by 1e-3 of its scale.
      const std::size_t last = c.size() - 1;
      std::vector<ReferenceEntry> r;
      const Shape s = gemm_shape(p);
      gemm_bias_act_reference(
          {ops.at("A").as<float>().data(), ops.at("B").as<float>().data(),
           ops.at("bias").as<float>().data(), s.m, s.n, s.k, ops::activation_of(p)},
          s.m - 1, s.n - 1, s.n, r);
      c[last] += static_cast<float>(1e-3L * r[0].scale);
      const Validation wrong = validate(p, ops, 1);
      EXPECT_EQ(wrong.disposition, Disposition::incorrect) << params << " " << act;
      EXPECT_NE(wrong.message.find("exceeds tolerance"), std::string::npos) << wrong.message;
    }
}

TEST(GemmBiasActKernels, FusedAndUnfusedPassTheReferenceOnAwkwardShapes) {
  test::expect_catalog_kernels_pass(DType::f32);
}

TEST(GemmBiasActKernels, LongKCrossesKcBlocksAndTheNotesSayHowCWasStored) {
  auto fused = test::builtin_catalog().create("cpu.fused", "gemm_bias_act");
  const Problem p = make("m=37,n=53,k=2100", "gelu_tanh");
  if (!fused->supports(p, 1)) GTEST_SKIP() << fused->supports(p, 1).reason;
  Operands ops = filled(p);
  fused->prepare(p, ops, 1);
  const auto notes = fused->notes();
  const std::string blocking = notes.at("blocking");
  const int kc = std::stoi(blocking.substr(blocking.find("kc=") + 3));
  EXPECT_LT(kc, 2100) << blocking;
  EXPECT_NE(notes.at("epilogue").find("micro-kernel's store"), std::string::npos);
  auto unfused = test::builtin_catalog().create("cpu.unfused", "gemm_bias_act");
  unfused->prepare(p, ops, 1);
  EXPECT_NE(unfused->notes().at("epilogue").find("gelu_tanh pass"), std::string::npos);
}

TEST(GemmBiasActKernels, RefuseOtherOps) {
  for (const char* backend : {"cpu.fused", "cpu.unfused"}) {
    auto kernel = test::builtin_catalog().create(backend, "gemm_bias_act");
    const Problem p = make("m=8,n=8,k=8", "relu");
    if (!kernel->supports(p, 1)) GTEST_SKIP() << kernel->supports(p, 1).reason;
    EXPECT_FALSE(kernel->supports(gemm_problem(Shape{8, 8, 8, 1}), 1));
  }
}

// ---- the packed driver's epilogue and the passes, per ISA ----

namespace {

struct IsaCase {
  const char* name;
  packed::MicroKernel<float> (*microkernel)();
  packed::EpiloguePasses<float> (*passes)();
  bool (*available)();
  friend void PrintTo(const IsaCase& c, std::ostream* os) { *os << c.name; }
};

// Each architecture's own (the other's are not built).
const IsaCase kIsas[] = {
#if defined(__x86_64__)
    {"avx512", &packed::microkernel_f32_avx512, &packed::epilogue_passes_avx512,
     [] { return cpu_features().has_avx512(); }},
    {"avx2", &packed::microkernel_f32_avx2, &packed::epilogue_passes_avx2,
     [] { return cpu_features().has_avx2_fma(); }}
#else
    {"neon", &packed::microkernel_f32_neon, &packed::epilogue_passes_neon,
     [] { return cpu_features().neon; }}
#endif
};

std::string isa_case_name(const ::testing::TestParamInfo<IsaCase>& info) {
  return info.param.name;
}

}  // namespace

class GemmBiasActIsa : public ::testing::TestWithParam<IsaCase> {
 protected:
  void SetUp() override {
    if (!GetParam().available())
      GTEST_SKIP() << "this CPU has no " << GetParam().name << " (CPUID)";
  }
};

TEST_P(GemmBiasActIsa, EpilogueAndPassesPassTheReference) {
  const packed::MicroKernel<float> uk = GetParam().microkernel();
  const packed::EpiloguePasses<float> passes = GetParam().passes();
  for (const std::string& shape : test::kGemmBiasActShapes)
    for (const char* act : {"relu", "gelu_tanh"})
      for (bool fused : {true, false}) {
        const Problem p = make(shape, act);
        Operands ops = filled(p);
        const cpu::GemmArgs<float> g = cpu::gemm_args<float>(p, gemm_view(ops));
        const float* bias = ops.at("bias").as<float>().data();
        std::optional<packed::Epilogue<float>> epilogue;
        if (fused) epilogue = packed::Epilogue<float>{bias, ops::activation_of(p)};
        packed::PackedGemm<float> gemm;
        gemm.prepare(g, uk, packed::derive_blocking(cache_sizes(), uk.mr, uk.nr, 4), 2, epilogue);
        gemm.run();
        if (!fused) {
          passes.add_bias(g.c, bias, g.m, g.n);
          passes.activate(g.c, g.m * g.n, ops::activation_of(p));
        }
        const Validation v = validate(p, ops, 5);
        EXPECT_EQ(v.disposition, Disposition::passed)
            << uk.name << (fused ? " epilogue " : " passes ") << shape << " " << act << ": "
            << v.message;
      }
}

// The activations alone, from -30 to 30 and at a few extremes, against the long-double
// reference, relative to max(|x|, 2^-126) (the validation measures against a scale >= |x|).
TEST_P(GemmBiasActIsa, ActivationsAreAccurateOverTheirRange) {
  std::vector<float> x;
  for (int i = -30000; i <= 30000; ++i) x.push_back(static_cast<float>(i) * 1e-3f);
  for (float v : {1e-30f, -1e-30f, 1e-7f, -1e-7f, 100.0f, -100.0f, 1e10f, -1e10f, 3e38f, -3e38f})
    x.push_back(v);
  for (Activation act : {Activation::relu, Activation::gelu_tanh}) {
    std::vector<float> y = x;
    GetParam().passes().activate(y.data(), static_cast<std::int64_t>(y.size()), act);
    double worst = 0;
    float worst_x = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const long double ref = activation_reference(act, x[i]);
      const double err = static_cast<double>(std::fabs(y[i] - ref) /
                                             std::max<long double>(std::fabs(x[i]), 0x1p-126L));
      if (!(err <= worst)) worst = err, worst_x = x[i];
    }
    // About 4 ulp (1.9 measured): well within the op's allowance of 8 * (1 + 9) * 2^-24 = 4.8e-6.
    EXPECT_LT(worst, act == Activation::relu ? 1e-30 : 2.5e-7)
        << GetParam().name << " " << to_string(act) << " worst at x = " << worst_x;
  }
}

INSTANTIATE_TEST_SUITE_P(GemmBiasAct, GemmBiasActIsa, ::testing::ValuesIn(kIsas), isa_case_name);

}  // namespace ridgeline
