// One byte count per pass (#66), for a case that never ran: an unfused chain that fails is
// recorded with the bytes its passes would have moved, as it records them when it runs
// (core/op.hpp: role_work), not with the fused op's.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../support/op_cases.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/runner/runner.hpp"
#include "test_kernels.hpp"

namespace ridgeline {
namespace {

// An unfused softmax whose prepare() throws: the runner records it crashed, untimed.
class FailingUnfusedSoftmax : public Kernel {
 public:
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& p, int threads) const override {
    return check_common_support(info_, p, threads);
  }
  void prepare(const Problem&, Operands&, int) override {
    throw std::runtime_error("the scratch rows could not be allocated");
  }
  void run() override {}

 private:
  KernelInfo info_{"softmax", "test.unfused_fails", Device::cpu,         {DType::f32},
                   false,     "test-only",          KernelRole::unfused, "test"};
};

TEST(UnfusedBytes, AFailedUnfusedCaseRecordsItsPassesBytes) {
  KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  catalog.add([] { return std::make_unique<FailingUnfusedSoftmax>(); });
  Problem p = test::make_problem("softmax", "rows=64,cols=64");
  p.dtype = DType::f32;
  p.pattern = "normal";
  const ridgeline::Run run =
      run_plan(catalog, {CaseSpec{"test.unfused_fails", p, 1}}, testing::quick(), {}, {});
  ASSERT_FALSE(run.benchmarks.empty());
  const CaseResult& r = run.benchmarks.front();
  ASSERT_TRUE(r.ridgeline);
  EXPECT_EQ(r.ridgeline->validation.disposition, Disposition::crashed);
  EXPECT_EQ(r.ridgeline->work.bytes, op_unfused_work(p).bytes);
  EXPECT_GT(r.ridgeline->work.bytes_at(MemoryLevel::main), op_work(p).bytes_at(MemoryLevel::main))
      << "the passes move more than the fused op";
}

}  // namespace
}  // namespace ridgeline
