// The attention op in bf16 (cpu.fused, cpu.unfused, vendor.onednn): bf16 in memory, f32
// arithmetic, on CPUs with AVX-512 and AVX512_BF16 and on AArch64; against the double reference on
// the bf16 inputs the kernels read (validate()), the fused kernel bit for bit against its f32 form
// on widened inputs, the refusals, and the byte model.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../support/op_cases.hpp"
#include "attention_test_support.hpp"
#include "onednn_test_support.hpp"
#include "ops/attention_ops.hpp"
#include "ops/attention_unfused.hpp"
#include "ops/rowwise_ops.hpp"
#include "ridgeline/core/ops/attention.hpp"
#include "ridgeline/kernels/amx.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

using attention_testing::expect_validation_catches_a_wrong_and_an_unwritten_output;
using attention_testing::filled;
using attention_testing::kSampledShape;
using attention_testing::kShapes;
using attention_testing::make;
using ops::Isa;
using ops::onednn_unavailable_reason;  // REQUIRE_ONEDNN calls it unqualified
using test::builtin_catalog;

// The fused implementation with bf16 in this build: the widest vector one (AVX-512; NEON, or
// SVE where its 256-bit unit runs).
#if defined(__aarch64__)
const Isa kBf16Isa = ops::best_isa();
#else
constexpr Isa kBf16Isa = Isa::avx512;
#endif

// Why the fused bf16 attention cannot run here (x86-64: the row-wise bf16 reason; AArch64:
// none, its conversions are baseline NEON), and why the unfused one cannot (AArch64: its
// GEMMs need BFMMLA).
std::string fused_missing() {
  return ops::attention_fused_bf16_unsupported(kBf16Isa);
}
std::string unfused_missing() {
  return ops::AttentionUnfused::bf16_unsupported();
}

template <typename T>
ops::AttentionArgsOf<T> args(const Problem& p, Operands& ops) {
  const AttentionDims d = attention_dims(p);
  return {{d.batch * d.heads, d.seq, d.head_dim, d.causal},
          ops.at("Q").as<T>().data(),
          ops.at("K").as<T>().data(),
          ops.at("V").as<T>().data(),
          ops.at("O").as<T>().data()};
}

}  // namespace

// Runs `backend` on every shape, 1 and 2 threads, and checks it against the reference;
// returns the worst error relative to the magnitude.
double check_on_awkward_shapes(const std::string& backend) {
  double worst = 0;
  for (const char* params : kShapes)
    for (int threads : {1, 2}) {
      auto kernel = builtin_catalog().create(backend, "attention");
      EXPECT_TRUE(kernel) << backend;
      if (!kernel) return worst;
      const Problem p = make(params, DType::bf16);
      const Support s = kernel->supports(p, threads);
      EXPECT_TRUE(s) << backend << " " << params << ": " << s.reason;
      if (!s) continue;
      Operands ops = filled(p);
      kernel->prepare(p, ops, threads);
      kernel->run();
      kernel->run();  // a second run overwrites, as the timed loop does
      kernel->finish();
      const Validation v = validate(p, ops, 7);
      EXPECT_EQ(v.disposition, Disposition::passed)
          << backend << " " << params << " threads=" << threads << ": " << v.message;
      EXPECT_EQ(v.method, params == kSampledShape ? "sampled rows" : "direct") << params;
      worst = std::max(worst, v.max_rel_err);
    }
  ::testing::Test::RecordProperty("worst_" + backend, std::to_string(worst));
  return worst;
}

// The op's bf16 tolerance is loose (8 (2^-8 + ops 2^-24): 0.031 and more); what the kernels
// reach is well inside it. Fused on the vector units rounds once, O (half a bf16 ulp, at most
// 2^-8 of |O|, and |O| is at most its magnitude); on the AMX tiles it rounds P too
// (attention_amx_test.cpp); the unfused chains round Qs, S and P.
// On AArch64 the unfused GEMMs are BFMMLA's, whose sums round to odd (an ulp of f32 per step,
// far below the bf16 roundings of S and P).
TEST(AttentionBf16, FusedAndUnfusedPassTheReferenceOnAwkwardShapes) {
  if (const std::string why = fused_missing(); !why.empty()) GTEST_SKIP() << why;
  const bool tiles = amx_support().reason_for("bf16").empty();
  EXPECT_LE(check_on_awkward_shapes("cpu.fused"), tiles ? 0x1p-7 : 0x1p-8 + 1e-5);
  if (const std::string why = unfused_missing(); !why.empty()) GTEST_SKIP() << why;
  EXPECT_LE(check_on_awkward_shapes("cpu.unfused"), 0x1p-6);
}

TEST(AttentionBf16, TheVendorPassesTheReferenceOnAwkwardShapes) {
  REQUIRE_ONEDNN();
  auto kernel = builtin_catalog().create("vendor.onednn", "attention");
  if (const Support s = kernel->supports(make("heads=1,seq=8,head_dim=8", DType::bf16), 1); !s)
    GTEST_SKIP() << s.reason;  // oneDNN 2.6 runs bf16 only on AVX-512
  EXPECT_LE(check_on_awkward_shapes("vendor.onednn"), 0x1p-6);
  // bf16 keeps oneDNN's fast paths: no step on its reference implementation (ref:any).
  for (const char* params :
       {"batch=2,heads=3,seq=37,head_dim=16", "batch=2,heads=3,seq=37,head_dim=16,causal=1"}) {
    const Problem p = make(params, DType::bf16);
    Operands ops = filled(p);
    kernel->prepare(p, ops, 2);
    const std::string impl = kernel->notes().at("implementation");
    EXPECT_EQ(impl.find("ref"), std::string::npos) << params << ": " << impl;
  }
}

// The bf16 fused kernel is the f32 one on the widened inputs, its output rounded to nearest
// even: the same bits as core's to_bf16 of the f32 kernel's result.
TEST(AttentionBf16, FusedIsTheF32KernelOnWidenedDataRoundedToNearestEven) {
  if (const std::string why = fused_missing(); !why.empty()) GTEST_SKIP() << why;
  for (const char* params : kShapes)
    for (int threads : {1, 2}) {
      const Problem pb = make(params, DType::bf16), pf = make(params);
      Operands bf = filled(pb), f32 = allocate_operands(pf);
      for (const char* name : {"Q", "K", "V"}) {
        const auto bits = bf.at(name).as<std::uint16_t>();
        auto wide = f32.at(name).as<float>();
        for (std::size_t i = 0; i < bits.size(); ++i) wide[i] = from_bf16(bits[i]);
      }
      const ops::AttentionShape shape = args<float>(pf, f32).shape;
      std::vector<float> scratch(ops::attention_fused_scratch(kBf16Isa, shape, threads));
      ops::attention_fused_isa(kBf16Isa, args<float>(pf, f32), scratch.data(), threads);
      ops::attention_fused_isa(kBf16Isa, args<std::uint16_t>(pb, bf), scratch.data(), threads);
      const auto got = bf.at("O").as<std::uint16_t>();
      const auto want = f32.at("O").as<float>();
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], to_bf16(want[i]))
            << params << " threads=" << threads << " O[" << i << "]";
    }
}

TEST(AttentionBf16, OnlyTheWidestFusedFormRunsIt) {
  if (const std::string why = fused_missing(); !why.empty()) GTEST_SKIP() << why;
  EXPECT_EQ(ops::attention_fused_bf16_unsupported(kBf16Isa), "");
  const Problem p = make("heads=1,seq=8,head_dim=8", DType::bf16);
  Operands ops = filled(p);
  std::vector<float> scratch(ops::attention_fused_scratch(kBf16Isa, {1, 8, 8, false}, 1));
#if defined(__aarch64__)
  const Isa others[] = {Isa::scalar};
#else
  const Isa others[] = {Isa::avx2, Isa::scalar};
#endif
  for (Isa isa : others) {
    const std::string why = ops::attention_fused_bf16_unsupported(isa);
    EXPECT_NE(
        why.find(std::string("has no bf16 form in its ") + ops::to_string(isa) + " implementation"),
        std::string::npos)
        << why;
    EXPECT_THROW(ops::attention_fused_isa(isa, args<std::uint16_t>(p, ops), scratch.data(), 1),
                 std::invalid_argument);
  }
}

// x86-64: both forms need AVX-512 and AVX512_BF16. AArch64: the fused form runs on every CPU
// and the unfused one needs BF16 (a Neoverse N1 or Cortex-A76 lacks it).
TEST(AttentionBf16, RefusedWithTheReasonWhereTheCpuLacksItsInstructions) {
  const std::string why = unfused_missing();
  if (why.empty()) GTEST_SKIP() << "this CPU has the bf16 instructions: the bf16 kernels run here";
  const Problem p = make("heads=2,seq=64,head_dim=32", DType::bf16);
#if defined(__x86_64__)
  for (const char* backend : {"cpu.fused", "cpu.unfused"}) {
    const std::string wanted = "bf16 needs AVX-512";
#else
  EXPECT_TRUE(builtin_catalog().create("cpu.fused", "attention")->supports(p, 1));
  for (const char* backend : {"cpu.unfused"}) {
    const std::string wanted = "need BF16 (BFMMLA; HWCAP2_BF16)";
#endif
    auto kernel = builtin_catalog().create(backend, "attention");
    const Support s = kernel->supports(p, 1);
    EXPECT_FALSE(s) << backend;
    EXPECT_NE(s.reason.find(wanted), std::string::npos) << s.reason;
    EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
  }
}

// bf16 halves every byte the models count: the operands, and the unfused S and P.
TEST(AttentionBf16, TheByteModelIsHalfTheF32One) {
  for (const char* params :
       {"heads=8,seq=2048,head_dim=64,causal=0", "batch=2,heads=3,seq=37,head_dim=24,causal=1"}) {
    const Problem f = make(params), b = make(params, DType::bf16);
    EXPECT_EQ(op_work(b).bytes.at(MemoryLevel::main) * 2, op_work(f).bytes.at(MemoryLevel::main))
        << params;
    EXPECT_EQ(op_unfused_work(b).bytes.at(MemoryLevel::main) * 2,
              op_unfused_work(f).bytes.at(MemoryLevel::main))
        << params;
    EXPECT_EQ(op_work(b).flops, op_work(f).flops);
    for (const char* backend : {"cpu.fused", "cpu.unfused", "vendor.onednn"}) {
      auto kernel = builtin_catalog().create(backend, "attention");
      ASSERT_TRUE(kernel) << backend;
      EXPECT_EQ(kernel->work(b),
                std::string(backend) == "cpu.fused" ? op_work(b) : op_unfused_work(b))
          << backend;
    }
  }
  // The unfused chain's buffers: S, P and Qs in bf16, plus one head's f32 staging.
  const ops::AttentionShape s{8, 2048, 64, false};
  const std::size_t f32 = *ops::AttentionUnfused::buffer_bytes(s, DType::f32);
  const std::size_t bf16 = *ops::AttentionUnfused::buffer_bytes(s, DType::bf16);
  EXPECT_EQ(f32, 4u * (2 * 8 * 2048 * 2048 + 8 * 2048 * 64));
  EXPECT_EQ(bf16, f32 / 2 + 4u * (2048 * 2048 + 2048 * 64));
}

TEST(AttentionBf16, ValidationCatchesAWrongAndAnUnwrittenOutput) {
  if (const std::string why = fused_missing(); !why.empty()) GTEST_SKIP() << why;
  expect_validation_catches_a_wrong_and_an_unwritten_output(DType::bf16, [](Operands& ops) {
    // One output of the last row off by 0.25 (its magnitude is about 1: far past the tolerance).
    std::uint16_t& o = ops.at("O").as<std::uint16_t>()[2 * 33 * 20 - 7];
    o = to_bf16(from_bf16(o) + 0.25f);
  });
}

}  // namespace ridgeline
