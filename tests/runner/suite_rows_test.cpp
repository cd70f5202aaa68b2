// Suites are data: rows name ops, shapes and roles, the catalog supplies the kernels, so a
// kernel joins every row that names its op and role by being registered; the GEMM and
// patterns suites' rows name their kernels.
#include "suite_rows.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "fusion_suites.hpp"
#include "gemm_suites.hpp"

namespace ridgeline {
namespace {

// A vendor rmsnorm that exists only in this test: it is never run, only planned.
class TestVendorRmsnorm : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem&, int) const override { return Support::no("planned only"); }
  void prepare(const Problem&, Operands&, int) override {}
  void run() override {}

 private:
  KernelInfo info_{"rmsnorm", "test.vendor",        Device::cpu,       {DType::f32},
                   true,      "a test-only vendor", KernelRole::vendor};
};

const KernelInfo& kernel_of(const KernelCatalog& catalog, const CaseSpec& c) {
  const KernelInfo* k = catalog.find(c.backend, c.problem.op);
  EXPECT_NE(k, nullptr) << c.name();
  return *k;
}

// The case without its backend: what a fused case and its unfused twin share.
std::string problem_of(const CaseSpec& c) {
  std::string name = c.name();
  return name.erase(name.find(c.backend), c.backend.size());
}

TEST(SuiteRows, CpuFusionSuiteRunsOwnKernelsOfTheCpuFamilyInCompletePairs) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const std::vector<CaseSpec> cases = fusion_suite(catalog, 2);
  ASSERT_FALSE(cases.empty());
  std::set<std::string> fused, unfused;
  for (const CaseSpec& c : cases) {
    const KernelInfo& k = kernel_of(catalog, c);
    EXPECT_EQ(k.device, Device::cpu) << c.name();
    EXPECT_NE(k.role, KernelRole::ladder) << c.name();
    // The AVX2-forced twins (family "cpu.avx2") are not the suite's: it runs what CPUID picks.
    if (k.role != KernelRole::vendor) {
      EXPECT_EQ(k.family, "cpu") << c.name();
    }
    if (k.role == KernelRole::fused) fused.insert(problem_of(c));
    if (k.role == KernelRole::unfused) unfused.insert(problem_of(c));
  }
  EXPECT_EQ(fused, unfused);
  // One and all threads.
  EXPECT_TRUE(std::any_of(cases.begin(), cases.end(), [](auto& c) { return c.threads == 2; }));
}

TEST(SuiteRows, ARegisteredVendorJoinsTheRowsThatNameItsOpAndRole) {
  KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  auto count_test_vendor = [&](const std::vector<CaseSpec>& cases) {
    return std::count_if(cases.begin(), cases.end(),
                         [](const CaseSpec& c) { return c.backend == "test.vendor"; });
  };
  EXPECT_EQ(count_test_vendor(fusion_suite(catalog, 1)), 0);
  catalog.add([] { return std::make_unique<TestVendorRmsnorm>(); });
  const std::vector<CaseSpec> cases = fusion_suite(catalog, 1);
  // The vendor rows at 4096 x 4096: f32 only, since bf16 is not among its dtypes.
  ASSERT_EQ(count_test_vendor(cases), 1);
  auto it = std::find_if(cases.begin(), cases.end(),
                         [](const CaseSpec& c) { return c.backend == "test.vendor"; });
  EXPECT_EQ(it->problem.op, "rmsnorm");
  EXPECT_EQ(it->problem.dtype, DType::f32);
  EXPECT_EQ(it->problem.params.dims.at("rows"), 4096);
}

TEST(SuiteRows, ARoleNoKernelFillsAddsNothingAndDtypesFollowTheKernel) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const std::vector<CaseSpec> cases =
      expand_suite_rows(catalog, {Device::cpu, "cpu"},
                        {{{"rmsnorm"},
                          {{DType::f64, {"rows=8,cols=8"}}, {DType::f32, {"rows=8,cols=8"}}},
                          {KernelRole::ladder, KernelRole::fused}}},
                        {1, 2});
  // No rmsnorm kernel is a ladder rung or takes f64: the fused kernel at f32, per thread count.
  ASSERT_EQ(cases.size(), 2u);
  for (const CaseSpec& c : cases) {
    EXPECT_EQ(c.backend, "cpu.fused");
    EXPECT_EQ(c.problem.dtype, DType::f32);
  }
  EXPECT_EQ(cases[0].threads, 1);
  EXPECT_EQ(cases[1].threads, 2);
}

TEST(SuiteRows, GpuFusionRowsPairEveryCudaKernelWithItsTwin) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const bool cuda_built = std::any_of(catalog.kernels().begin(), catalog.kernels().end(),
                                      [](const KernelInfo& k) { return k.device == Device::gpu; });
  if (!cuda_built) GTEST_SKIP() << "built without CUDA (RIDGELINE_WITH_CUDA off): no GPU kernels";
  // What gpu-fusion would run on a GPU, planned on this machine without one.
  const std::vector<CaseSpec> cases =
      expand_suite_rows(catalog, {Device::gpu, "cuda"}, gpu_fusion_rows(), {1});
  std::set<std::string> fused, unfused, ops;
  for (const CaseSpec& c : cases) {
    const KernelInfo& k = kernel_of(catalog, c);
    EXPECT_EQ(k.device, Device::gpu) << c.name();
    if (k.role != KernelRole::vendor) {
      EXPECT_EQ(k.family, "cuda") << c.name();
    }
    if (k.role == KernelRole::fused) fused.insert(problem_of(c));
    if (k.role == KernelRole::unfused) unfused.insert(problem_of(c));
    ops.insert(c.problem.op);
  }
  EXPECT_EQ(ops, (std::set<std::string>{"softmax", "layernorm", "rmsnorm", "eltwise_chain",
                                        "gemm_bias_act", "attention"}));
  // gemm_bias_act in f32 has no own fused kernel (bf16 only): its unfused case stands alone.
  for (const std::string& p : fused) EXPECT_TRUE(unfused.count(p)) << p;
  EXPECT_EQ(unfused.size() - fused.size(), 1u);
}

// The gpu suite as the code that built it spelled it: every GEMM kernel of the GPU in catalog
// order, each dtype it lists, f32 and f64 at 4096^3 and the rest at 8192^3, i8 also as NT.
TEST(SuiteRows, GpuGemmRowsRunEveryGpuGemmKernelInEveryDtypeItLists) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  std::vector<std::string> expected;
  for (const KernelInfo& k : catalog.kernels()) {
    if (k.device != Device::gpu || k.op != "gemm") continue;
    for (DType dtype : k.dtypes) {
      const std::int64_t n = dtype == DType::f32 || dtype == DType::f64 ? 4096 : 8192;
      for (Layout layout : {Layout::NN, Layout::NT})
        if (layout == Layout::NN || dtype == DType::i8)
          expected.push_back(
              CaseSpec{k.backend, gemm_problem({n, n, n, 1}, layout, dtype, "normal"), 1}.name());
    }
  }
  if (expected.empty()) GTEST_SKIP() << "built without CUDA (RIDGELINE_WITH_CUDA off)";
  std::vector<std::string> planned;
  for (const CaseSpec& c : expand_gemm_rows(catalog, gpu_gemm_rows(), {1}))
    planned.push_back(c.name());
  EXPECT_EQ(planned, expected);
}

// A backend named twice (the AVX2 rung where it is also the best packed one) is planned
// once; a slow rung stops at its largest size; a rung named for one thread only is not on
// several.
TEST(SuiteRows, ARungIsPlannedOncePerThreadCountAndUpToItsLargestSize) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const KernelPick naive{KernelPick::Kind::named, "cpu.naive"};
  const KernelPick eigen{KernelPick::Kind::named, "cpu.eigen", "cpu.eigen"};
  const std::vector<GemmRow> rows{{{naive, eigen, naive},
                                   {{DType::f32, {{64, 64, 64, 1}, {128, 128, 128, 1}}}},
                                   {{"cpu.naive", 100}}}};
  std::vector<std::string> planned;
  for (const CaseSpec& c : expand_gemm_rows(catalog, rows, {1, 2}))
    planned.push_back(c.backend + " " + std::to_string(gemm_shape(c.problem).n) + " " +
                      std::to_string(c.threads));
  EXPECT_EQ(planned,
            (std::vector<std::string>{"cpu.naive 64 1", "cpu.eigen 64 1", "cpu.eigen 128 1",
                                      "cpu.eigen 64 2", "cpu.eigen 128 2"}));
}

// A rung not in this build keeps its cases, in f32 and f64, so the run says why it did not
// run; in a patterns row a kernel the catalog lacks adds nothing.
TEST(SuiteRows, ARungNotInThisBuildIsPlannedAndAPatternsKernelNotInTheCatalogIsNot) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const KernelPick absent{KernelPick::Kind::named, "cpu.not_built", "cpu.not_built"};
  const std::vector<CaseSpec> gemm =
      expand_gemm_rows(catalog, {{{absent}, in_every_dtype({{8, 8, 8, 1}}), {}}}, {1});
  ASSERT_EQ(gemm.size(), 2u);
  EXPECT_EQ(gemm[0].problem.dtype, DType::f32);
  EXPECT_EQ(gemm[1].problem.dtype, DType::f64);
  EXPECT_TRUE(expand_pattern_rows(
                  catalog, {{absent, "gemm", DType::f32, "m=8,n=8,k=8", true, {{"normal"}}}}, 2)
                  .empty());
}

// A patterns row runs its kernel on each of its inputs in turn, per thread count.
TEST(SuiteRows, APatternsRowRunsEachInputInTurnOnEachThreadCount) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const std::vector<PatternRow> rows{{{KernelPick::Kind::named, "cpu.fused", "cpu.fused"},
                                      "eltwise_chain",
                                      DType::f32,
                                      "n=64,L=2",
                                      true,
                                      {{"subnormal"}, {"subnormal", FpEnv::ftz_daz}}}};
  std::vector<std::string> planned;
  for (const CaseSpec& c : expand_pattern_rows(catalog, rows, 4)) planned.push_back(c.name());
  EXPECT_EQ(planned,
            (std::vector<std::string>{
                "eltwise_chain/cpu.fused/f32/n=64,L=2/pattern=subnormal/threads=1",
                "eltwise_chain/cpu.fused/f32/n=64,L=2/pattern=subnormal/fp=ftz_daz/threads=1",
                "eltwise_chain/cpu.fused/f32/n=64,L=2/pattern=subnormal/threads=4",
                "eltwise_chain/cpu.fused/f32/n=64,L=2/pattern=subnormal/fp=ftz_daz/threads=4"}));
}

}  // namespace
}  // namespace ridgeline
