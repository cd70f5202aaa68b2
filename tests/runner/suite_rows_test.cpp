// Suites are data: rows name ops, shapes and roles, the catalog supplies the kernels, so a
// kernel joins every row that names its op and role by being registered.
#include "suite_rows.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "fusion_suites.hpp"

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

}  // namespace
}  // namespace ridgeline
