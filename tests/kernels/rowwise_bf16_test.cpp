// The row-wise ops' bf16 forms (cpu.fused, cpu.unfused): bf16 in memory, f32 arithmetic, on
// CPUs with AVX-512 and AVX512_BF16; refused with the reason elsewhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../support/op_cases.hpp"
#include "ops/rowwise_ops.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

using test::builtin_catalog;
using test::make_problem;
using test::run_and_validate;

Problem bf16_problem(const std::string& op, const std::string& params) {
  Problem p = make_problem(op, params);
  p.dtype = DType::bf16;
  return p;
}

// Awkward shapes: one element, every width around one and two 16-lane vectors, a prime
// width, several rows, and a problem large enough that validation samples rows.
std::vector<std::pair<std::string, std::string>> awkward_cases() {
  std::vector<std::pair<std::string, std::string>> cases;
  for (const char* op : {"softmax", "layernorm", "rmsnorm"}) {
    for (int cols = 1; cols <= 33; ++cols)
      cases.emplace_back(op,
                         "rows=" + std::to_string(cols % 4 + 1) + ",cols=" + std::to_string(cols));
    cases.emplace_back(op, "rows=9,cols=4099");
  }
  cases.emplace_back("softmax", "rows=2048,cols=4096");  // sampled rows
  for (int n : {1, 15, 16, 17, 33, 4099, 1000003})
    for (int L : {1, 4, 7})
      cases.emplace_back("eltwise_chain", "n=" + std::to_string(n) + ",L=" + std::to_string(L));
  return cases;
}

void expect_fused_bf16_is_f32_rounded(std::int64_t rows, std::int64_t cols) {
  const std::int64_t n = rows * cols;
  std::vector<std::uint16_t> x(n), gamma(cols), beta(cols), y(n);
  std::vector<float> xf(n), gf(cols), bf(cols), yf(n);
  for (std::int64_t i = 0; i < n; ++i)
    x[i] = to_bf16(static_cast<float>((i * 7919) % 1001) / 97.0f - 5.0f);
  for (std::int64_t c = 0; c < cols; ++c) {
    gamma[c] = to_bf16(0.5f + static_cast<float>(c % 13) / 7.0f);
    beta[c] = to_bf16(static_cast<float>(c % 5) - 2.0f);
    gf[c] = from_bf16(gamma[c]);
    bf[c] = from_bf16(beta[c]);
  }
  for (std::int64_t i = 0; i < n; ++i) xf[i] = from_bf16(x[i]);
  const auto expect_rounded = [&](const char* what) {
    for (std::int64_t i = 0; i < n; ++i)
      ASSERT_EQ(y[i], to_bf16(yf[i])) << what << " element " << i << ": f32 " << yf[i];
  };
  for (int threads : {1, 2}) {
    ops::softmax_fused(x.data(), y.data(), rows, cols, threads);
    ops::softmax_fused(xf.data(), yf.data(), rows, cols, threads);
    expect_rounded("softmax");
    ops::layernorm_fused(x.data(), gamma.data(), beta.data(), y.data(), rows, cols, kNormEpsilon,
                         threads);
    ops::layernorm_fused(xf.data(), gf.data(), bf.data(), yf.data(), rows, cols, kNormEpsilon,
                         threads);
    expect_rounded("layernorm");
    ops::rmsnorm_fused(x.data(), gamma.data(), y.data(), rows, cols, kNormEpsilon, threads);
    ops::rmsnorm_fused(xf.data(), gf.data(), yf.data(), rows, cols, kNormEpsilon, threads);
    expect_rounded("rmsnorm");
    ops::eltwise_chain_fused(x.data(), y.data(), n, 7, threads);
    ops::eltwise_chain_fused(xf.data(), yf.data(), n, 7, threads);
    expect_rounded("eltwise_chain");
  }
}

}  // namespace

TEST(RowwiseBf16, FusedAndUnfusedPassTheReferenceOnAwkwardShapes) {
  if (const std::string why = ops::bf16_unsupported_reason(cpu_features()); !why.empty())
    GTEST_SKIP() << why;
  double worst_fused = 0, worst_unfused = 0;
  for (const char* backend : {"cpu.fused", "cpu.unfused"})
    for (const auto& [op, params] : awkward_cases())
      for (int threads : {1, 2}) {
        auto kernel = builtin_catalog().create(backend, op);
        ASSERT_TRUE(kernel) << backend << " " << op;
        const Problem p = bf16_problem(op, params);
        ASSERT_TRUE(kernel->supports(p, threads)) << kernel->supports(p, threads).reason;
        const Validation v = run_and_validate(*kernel, p, threads);
        EXPECT_EQ(v.disposition, Disposition::passed)
            << backend << " " << op << " " << params << " threads=" << threads << ": " << v.message;
        EXPECT_EQ(v.method, params == "rows=2048,cols=4096" ? "sampled rows" : "direct");
        double& worst = std::string(backend) == "cpu.fused" ? worst_fused : worst_unfused;
        worst = std::max(worst, v.max_rel_err);
      }
  // The op's bf16 tolerance is loose (8 (1 + ops) 2^-8); what the kernels reach is far
  // inside it: fused rounds once (half a bf16 ulp, at most 2^-8 of the value, plus f32's
  // ~1e-6; 3.8e-3 measured), unfused once per pass whose result is stored (9.6e-3).
  EXPECT_LE(worst_fused, 0x1p-8 + 1e-5);
  EXPECT_LE(worst_unfused, 0x1p-6);
  RecordProperty("worst_fused", std::to_string(worst_fused));
  RecordProperty("worst_unfused", std::to_string(worst_unfused));
}

// Fused bf16 is the f32 fused row function on the widened row, rounded to nearest even: the
// same bits as the f32 entry run on the widened data and rounded by core's to_bf16. The bf16
// sweeps load and store bf16 themselves; the shapes give them tails (4099 = 256 vectors + 3,
// 33 = 2 + 1) and rows that start mid cache line, where the next row is prefetched.
TEST(RowwiseBf16, FusedIsTheF32KernelOnWidenedDataRoundedToNearestEven) {
  if (const std::string why = ops::bf16_unsupported_reason(cpu_features()); !why.empty())
    GTEST_SKIP() << why;
  // Also with y streamed (non-temporal stores) in both: rows whose start is 32-byte aligned
  // stream, the others store plainly.
  for (const std::int64_t threshold : {ops::streaming_threshold(), std::int64_t{0}}) {
    const ops::ScopedStreamingThreshold scope(threshold);
    for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{5, 4099}, {67, 33}}) {
      SCOPED_TRACE("rows=" + std::to_string(rows) + ",cols=" + std::to_string(cols) +
                   ", streaming threshold " + std::to_string(threshold));
      expect_fused_bf16_is_f32_rounded(rows, cols);
    }
  }
}
// The refusal, checked on the features a CPU without AVX512_BF16 (or without AVX-512)
// reports; on such a CPU the kernels themselves refuse too, with the same line.
TEST(RowwiseBf16, RefusedWithTheReasonWhereTheCpuLacksAvx512Bf16) {
#if defined(__x86_64__)
  CpuFeatures full;
  full.avx512f = full.avx512dq = full.avx512bw = full.avx512vl = full.avx512_bf16 = true;
  EXPECT_EQ(ops::bf16_unsupported_reason(full), "");
  CpuFeatures no_bf16 = full;
  no_bf16.avx512_bf16 = false;
  EXPECT_EQ(ops::bf16_unsupported_reason(no_bf16),
            "bf16 needs AVX512_BF16 (vcvtneps2bf16), which this CPU lacks");
  CpuFeatures no_avx512 = full;
  no_avx512.avx512bw = false;
  EXPECT_EQ(ops::bf16_unsupported_reason(no_avx512),
            "bf16 needs AVX-512 (F, DQ, BW, VL), which this CPU lacks");
#else
  // AArch64: the NEON unit's bf16 forms, baseline NEON alone (no FEAT_BF16 needed).
  CpuFeatures full;
  full.neon = true;
  EXPECT_EQ(ops::bf16_unsupported_reason(full), "");
  EXPECT_EQ(ops::bf16_unsupported_reason(CpuFeatures{}),
            "bf16 needs Advanced SIMD (NEON), which this CPU lacks");
#endif

  const std::string here = ops::bf16_unsupported_reason(cpu_features());
  for (const char* backend : {"cpu.fused", "cpu.unfused"})
    for (const char* op : {"softmax", "layernorm", "rmsnorm", "eltwise_chain"}) {
      auto kernel = builtin_catalog().create(backend, op);
      const Problem p =
          bf16_problem(op, op == std::string("eltwise_chain") ? "n=64,L=3" : "rows=2,cols=8");
      const Support s = kernel->supports(p, 1);
      EXPECT_EQ(s.ok, here.empty()) << backend << " " << op << ": " << s.reason;
      EXPECT_EQ(s.reason, here) << backend << " " << op;
      const Problem f32 =
          make_problem(p.op, op == std::string("eltwise_chain") ? "n=64,L=3" : "rows=2,cols=8");
      EXPECT_TRUE(kernel->supports(f32, 1)) << backend << " " << op;
    }
  if (!here.empty()) {
    std::vector<std::uint16_t> x(16), y(16);
    EXPECT_THROW(ops::softmax_fused(x.data(), y.data(), 2, 8, 1), std::invalid_argument);
  }
}

// bf16 moves half the bytes of f32 in both forms, for the same FLOPs.
TEST(RowwiseBf16, WorkModelBytesAreHalfOfF32) {
  const std::vector<std::pair<std::string, std::string>> cases{{"softmax", "rows=4096,cols=4096"},
                                                               {"layernorm", "rows=33,cols=1000"},
                                                               {"rmsnorm", "rows=5,cols=31"},
                                                               {"eltwise_chain", "n=4099,L=7"}};
  for (const auto& [op, params] : cases)
    for (const char* backend : {"cpu.fused", "cpu.unfused"}) {
      auto kernel = builtin_catalog().create(backend, op);
      const WorkModel f32 = kernel->work(make_problem(op, params));
      const WorkModel bf16 = kernel->work(bf16_problem(op, params));
      EXPECT_EQ(bf16.flops, f32.flops) << backend << " " << op;
      EXPECT_DOUBLE_EQ(bf16.bytes.at(MemoryLevel::main), f32.bytes.at(MemoryLevel::main) / 2)
          << backend << " " << op;
    }
}

TEST(RowwiseBf16, KernelsDeclareBothDtypes) {
  for (const char* backend : {"cpu.fused", "cpu.unfused"})
    for (const char* op : {"softmax", "layernorm", "rmsnorm", "eltwise_chain"})
      EXPECT_EQ(builtin_catalog().find(backend, op)->dtypes,
                (std::vector<DType>{DType::f32, DType::bf16}))
          << backend << " " << op;
}

}  // namespace ridgeline
