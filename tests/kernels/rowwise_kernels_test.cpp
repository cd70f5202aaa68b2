// The memory-bound ops' kernels as the runner runs them: from the catalog, on the op's
// named operands, checked by validate() against the op's reference and tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../support/op_cases.hpp"

namespace ridgeline {

namespace {

using test::builtin_catalog;
using test::make_problem;
using test::run_and_validate;

struct Case {
  std::string op, params;
};

const std::vector<Case> kCases{{"softmax", "rows=1,cols=1"},       {"softmax", "rows=3,cols=17"},
                               {"softmax", "rows=64,cols=4099"},   {"layernorm", "rows=1,cols=7"},
                               {"layernorm", "rows=33,cols=1000"}, {"rmsnorm", "rows=5,cols=31"},
                               {"rmsnorm", "rows=2048,cols=4096"},  // sampled rows
                               {"eltwise_chain", "n=1,L=1"},       {"eltwise_chain", "n=4099,L=7"},
                               {"eltwise_chain", "n=1000003,L=32"}};

}  // namespace

TEST(RowwiseKernels, FusedAndUnfusedPassTheOpsReferenceOnAwkwardShapes) {
  for (const char* backend : {"cpu.fused", "cpu.unfused"})
    for (const Case& c : kCases)
      for (int threads : {1, 2}) {
        auto kernel = builtin_catalog().create(backend, c.op);
        ASSERT_TRUE(kernel) << backend << " " << c.op;
        const Problem p = make_problem(c.op, c.params);
        ASSERT_TRUE(kernel->supports(p, threads)) << kernel->supports(p, threads).reason;
        const Validation v = run_and_validate(*kernel, p, threads);
        EXPECT_EQ(v.disposition, Disposition::passed)
            << backend << " " << c.op << " " << c.params << " threads=" << threads << ": "
            << v.message;
        EXPECT_LE(v.max_rel_err, v.tolerance);
        EXPECT_EQ(v.method, p.params.dims.count("rows") && p.params.dim("rows") == 2048
                                ? "sampled rows"
                                : "direct");
      }
}

// The unfused kernel's work is the traffic of its passes, so its roofline point sits left
// of the fused one; the FLOPs are the same.
TEST(RowwiseKernels, EachFormRecordsTheBytesItsPassesMove) {
  for (const Case& c : kCases) {
    const Problem p = make_problem(c.op, c.params);
    const WorkModel fused = builtin_catalog().create("cpu.fused", c.op)->work(p);
    const WorkModel unfused = builtin_catalog().create("cpu.unfused", c.op)->work(p);
    EXPECT_EQ(fused, op_work(p)) << c.op << " " << c.params;
    EXPECT_EQ(unfused, op_unfused_work(p)) << c.op << " " << c.params;
    EXPECT_EQ(fused.flops, unfused.flops);
  }
  const Problem softmax = make_problem("softmax", "rows=64,cols=4099");
  EXPECT_GT(
      builtin_catalog().create("cpu.unfused", "softmax")->work(softmax).bytes.at(MemoryLevel::main),
      3 * builtin_catalog()
              .create("cpu.fused", "softmax")
              ->work(softmax)
              .bytes.at(MemoryLevel::main));
}

TEST(RowwiseKernels, ValidationCatchesAWrongAndAnUnwrittenOutput) {
  for (const Case& c : {Case{"softmax", "rows=4,cols=33"}, Case{"layernorm", "rows=4,cols=33"},
                        Case{"eltwise_chain", "n=100,L=3"}}) {
    auto kernel = builtin_catalog().create("cpu.fused", c.op);
    const Problem p = make_problem(c.op, c.params);
    Operands ops = allocate_operands(p);
    test::fill_operands(ops);
    const Validation unwritten = validate(p, ops, 1);
    EXPECT_EQ(unwritten.disposition, Disposition::incorrect) << c.op;
    EXPECT_NE(unwritten.message.find("never written"), std::string::npos) << unwritten.message;
    kernel->prepare(p, ops, 1);
    kernel->run();
    // One output off by 0.1%: the largest, so that no input makes the change vanish.
    const auto y = ops.at("y").as<float>();
    *std::max_element(y.begin(), y.end(),
                      [](float a, float b) { return std::abs(a) < std::abs(b); }) *= 1.001f;
    const Validation wrong = validate(p, ops, 1);
    EXPECT_EQ(wrong.disposition, Disposition::incorrect) << c.op << " " << wrong.max_rel_err;
  }
}

TEST(RowwiseKernels, TheGemmOnlyOpsHaveNoRowwiseKernel) {
  EXPECT_FALSE(builtin_catalog().create("cpu.fused", "gemm"));
  EXPECT_TRUE(builtin_catalog().find("cpu.fused", "softmax"));
}

}  // namespace ridgeline
