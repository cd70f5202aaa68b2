// gemm_bias_act in bf16 (A, B and bias bf16, C f32): the validation against a result
// computed by hand from the widened inputs, the work model's bytes, and the catalog's
// cpu.fused and cpu.unfused (the bf16 micro-kernel, vdpbf16ps) on awkward shapes, both
// activations, 1 and 2 threads. The kernels need AVX512_BF16 and skip without it.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gemm_bias_act_test_support.hpp"
#include "ridgeline/kernels/amx.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

Problem make_bf16(const std::string& params, const char* act) {
  return test::make_gemm_bias_act(params, act, DType::bf16);
}

using test::filled;

}  // namespace

TEST(GemmBiasActBf16, ValidationPassesTheTextbookAndCatchesAWrongEntry) {
  for (const char* act : {"relu", "gelu_tanh"}) {
    const Problem p = make_bf16("m=37,n=53,k=19", act);
    Operands ops = filled(p);
    ASSERT_EQ(ops.at("A").dtype(), DType::bf16);
    ASSERT_EQ(ops.at("C").dtype(), DType::f32);
    EXPECT_EQ(validate(p, ops, 1).disposition, Disposition::incorrect) << "C is poisoned";
    const std::vector<double> ref = test::gemm_bias_act_by_hand(p, ops);
    auto c = ops.at("C").as<float>();
    for (std::size_t e = 0; e < c.size(); ++e) c[e] = static_cast<float>(ref[e]);
    const Validation v = validate(p, ops, 1);
    EXPECT_EQ(v.disposition, Disposition::passed) << act << ": " << v.message;
    EXPECT_EQ(v.tolerance, op_definition(p.op).tolerance(p));
    EXPECT_LT(v.max_rel_err, 1e-7) << "f32 rounding of the textbook result only";
    c[c.size() - 1] += 1e-2f * (1.0f + std::fabs(c[c.size() - 1]));
    const Validation wrong = validate(p, ops, 1);
    EXPECT_EQ(wrong.disposition, Disposition::incorrect) << act;
    EXPECT_NE(wrong.message.find("exceeds tolerance"), std::string::npos) << wrong.message;
  }
}

TEST(GemmBiasActBf16, WorkModelReadsHalfTheInputBytesOfF32) {
  const double m = 300, n = 200, k = 100;
  Problem p = make_bf16("m=300,n=200,k=100", "relu");
  const WorkModel bf16 = op_definition(p.op).work(p), bf16_unfused = op_unfused_work(p);
  p.dtype = DType::f32;
  const WorkModel f32 = op_definition(p.op).work(p), f32_unfused = op_unfused_work(p);
  const double inputs_f32 = (m * k + k * n + n) * 4;
  EXPECT_EQ(f32.bytes.at(MemoryLevel::main) - bf16.bytes.at(MemoryLevel::main), inputs_f32 / 2);
  EXPECT_EQ(f32_unfused.bytes.at(MemoryLevel::main) - bf16_unfused.bytes.at(MemoryLevel::main),
            inputs_f32 / 2)
      << "C stays f32, so the passes move the same bytes";
  EXPECT_EQ(bf16.flops, f32.flops);
}

TEST(GemmBiasActBf16, FusedAndUnfusedPassTheReferenceOnAwkwardShapes) {
  test::expect_catalog_kernels_pass(DType::bf16);
}

TEST(GemmBiasActBf16, RunsTheBf16MicroKernelAcrossKcBlocks) {
  auto fused = test::builtin_catalog().create("cpu.fused", "gemm_bias_act");
  const Problem p = make_bf16("m=37,n=53,k=2101", "gelu_tanh");
  if (!fused->supports(p, 1)) GTEST_SKIP() << fused->supports(p, 1).reason;
  Operands ops = filled(p);
  fused->prepare(p, ops, 1);
  const auto notes = fused->notes();
  const std::string blocking = notes.at("blocking");
  const int kc = std::stoi(blocking.substr(blocking.find("kc=") + 3));
  EXPECT_LT(kc, 2101) << blocking;
#if defined(__x86_64__)
  // The matrix engine where this process may use its tiles, else the vector units.
  const bool amx = amx_support().reason_for("bf16").empty();
  EXPECT_EQ(notes.at("microkernel"), amx ? "gemm_bf16_amx_32x32" : "gemm_bf16_avx512_14x32");
  EXPECT_EQ(notes.at("isa"), amx ? "amx" : "avx512");
  // Only the last kc block may end inside a group: a pair, or the AMX tile's 32 steps.
  EXPECT_EQ(kc % (amx ? 32 : 2), 0) << blocking;
#else
  EXPECT_EQ(notes.at("microkernel"), "gemm_bf16_bfmmla_8x12");
  EXPECT_EQ(notes.at("isa"), "neon");
  EXPECT_EQ(kc % 4, 0) << blocking;  // BFMMLA's four k steps
#endif
}

TEST(GemmBiasActBf16, RefusedWithTheReasonWithoutAvx512Bf16) {
  const CpuFeatures& cpu = cpu_features();
  for (const char* backend : {"cpu.fused", "cpu.unfused"}) {
    auto kernel = test::builtin_catalog().create(backend, "gemm_bias_act");
    Problem p = make_bf16("m=8,n=8,k=8", "relu");
    p.dtype = DType::f32;
    if (!kernel->supports(p, 1)) GTEST_SKIP() << kernel->supports(p, 1).reason;
    p.dtype = DType::bf16;
    const Support bf16 = kernel->supports(p, 1);
#if defined(__x86_64__)
    const bool has_bf16 = cpu.has_avx512() && cpu.avx512_bf16;
    const char* extension = "AVX512_BF16";
#else
    const bool has_bf16 = cpu.neon_bf16;
    const char* extension = "HWCAP2_BF16";
#endif
    if (has_bf16) {
      EXPECT_TRUE(bf16) << bf16.reason;
    } else {
      EXPECT_FALSE(bf16);
      EXPECT_NE(bf16.reason.find(extension), std::string::npos) << bf16.reason;
    }
  }
}

}  // namespace ridgeline
