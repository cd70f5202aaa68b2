// The bf16 fused attention with both matmuls on the AMX tiles (ops/attention_amx_body.hpp):
// on the tile model everywhere and on the instructions where amx_support() allows, against
// the op's reference on awkward shapes (seq and head_dim off the 32 x 32 tiles, causal and
// not); cpu.fused says which path ran, and RIDGELINE_ATTENTION_NO_AMX=1 selects the vector one.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "attention_test_support.hpp"
#include "ops/attention_ops.hpp"
#include "ops/rowwise_ops.hpp"
#include "ridgeline/core/ops/attention.hpp"
#include "ridgeline/kernels/amx.hpp"

namespace ridgeline {

namespace {

using attention_testing::filled;
using attention_testing::kSampledShape;
using attention_testing::kShapes;
using attention_testing::make;

// The shared awkward shapes (but the sampled one: the model is slow), and head_dim 64 and 128
// at seq 100 (the last chunk of keys partial).
std::vector<std::string> amx_shapes() {
  std::vector<std::string> shapes;
  for (const char* s : kShapes)
    if (s != kSampledShape) shapes.emplace_back(s);
  shapes.emplace_back("heads=2,seq=100,head_dim=64");
  shapes.emplace_back("heads=2,seq=100,head_dim=128,causal=1");
  shapes.emplace_back("batch=2,heads=1,seq=100,head_dim=64,causal=1");
  return shapes;
}

// Runs `impl` on every shape, 1 and 2 threads; returns the worst error relative to the
// magnitude (each case must pass the op's validation).
double worst_error(const ops::detail::AttentionAmx& impl, const std::vector<std::string>& shapes) {
  double worst = 0;
  for (const std::string& params : shapes)
    for (int threads : {1, 2}) {
      const Problem p = make(params, DType::bf16);
      Operands ops = filled(p);
      const AttentionDims d = attention_dims(p);
      const ops::AttentionShape shape{d.batch * d.heads, d.seq, d.head_dim, d.causal};
      std::vector<float> scratch(impl.scratch(shape, threads));
      const ops::AttentionArgsBf16 args{
          shape, ops.at("Q").as<std::uint16_t>().data(), ops.at("K").as<std::uint16_t>().data(),
          ops.at("V").as<std::uint16_t>().data(), ops.at("O").as<std::uint16_t>().data()};
      impl.run(args, scratch.data(), threads);
      impl.run(args, scratch.data(), threads);  // a second run overwrites
      const Validation v = validate(p, ops, 7);
      EXPECT_EQ(v.disposition, Disposition::passed)
          << params << " threads=" << threads << ": " << v.message;
      worst = std::max(worst, v.max_rel_err);
    }
  return worst;
}

// O's rounding (2^-9 of its magnitude) and P's at bf16 before the second matmul (2^-9 of each
// weight): well inside the op's tolerance (0.031 and up).
constexpr double kAmxBound = 0x1p-7;

}  // namespace

TEST(AttentionAmx, TheTileModelPassesTheReferenceOnAwkwardShapes) {
  const double worst = worst_error(ops::detail::attention_amx_model, amx_shapes());
  ::testing::Test::RecordProperty("worst_model", std::to_string(worst));
  EXPECT_LE(worst, kAmxBound);
}

TEST(AttentionAmx, TheInstructionsPassTheReferenceOnAwkwardShapes) {
  if (const std::string why = amx_support().reason_for("bf16"); !why.empty()) GTEST_SKIP() << why;
#if defined(__x86_64__)  // the tile unit is built on x86-64 alone; elsewhere the skip says so
  std::vector<std::string> shapes = amx_shapes();
  shapes.emplace_back(kSampledShape);
  const double worst = worst_error(ops::detail::attention_amx_hardware, shapes);
  ::testing::Test::RecordProperty("worst_hardware", std::to_string(worst));
  EXPECT_LE(worst, kAmxBound);
#endif
}

// cpu.fused runs bf16 on the tiles where they are usable and names the path in its notes; the
// switch (a tuning aid) brings back the vector path (the widest: AVX-512; NEON on AArch64,
// where there are no tiles); f32 never takes the tiles.
TEST(AttentionAmx, CpuFusedNamesThePathItRan) {
  const Problem bf16 = make("heads=1,seq=40,head_dim=64", DType::bf16);
  auto kernel = test::builtin_catalog().create("cpu.fused", "attention");
  ASSERT_TRUE(kernel);
  if (!kernel->supports(bf16, 1)) GTEST_SKIP() << kernel->supports(bf16, 1).reason;
  const bool tiles = amx_support().reason_for("bf16").empty();
  const std::string vector_isa = ops::to_string(ops::best_isa());
  Operands ops = filled(bf16);
  kernel->prepare(bf16, ops, 1);
  EXPECT_EQ(kernel->notes().at("isa"), tiles ? "amx" : vector_isa);
  ::setenv("RIDGELINE_ATTENTION_NO_AMX", "1", 1);
  kernel->prepare(bf16, ops, 1);
  ::unsetenv("RIDGELINE_ATTENTION_NO_AMX");
  EXPECT_EQ(kernel->notes().at("isa"), vector_isa);
  kernel->run();
  EXPECT_EQ(validate(bf16, ops, 1).disposition, Disposition::passed);
  const Problem f32 = make("heads=1,seq=40,head_dim=64");
  Operands f32_ops = filled(f32);
  kernel->prepare(f32, f32_ops, 1);
  EXPECT_NE(kernel->notes().at("isa"), "amx");
}

}  // namespace ridgeline
