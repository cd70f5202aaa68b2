// Each einsum kernel declares its lowering's kind (KernelInfo::lowering) and, once prepared,
// its steps with their kinds (Kernel::lowering_steps), each naming the note that says how it
// ran and the pass that laps it: what the Run records and the analysis reads instead of
// backends' names and notes' words.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "../support/op_cases.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

namespace ridgeline {

namespace {

Problem einsum_problem(const std::string& equation, const std::string& extents) {
  return test::make_problem("einsum", "equation=\"" + equation + "\"/extents=\"" + extents + "\"");
}

}  // namespace

TEST(EinsumLoweringKinds, EveryEinsumKernelDeclaresItsKindAndNoOtherKernelDoes) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels(discover_blas_libraries());
  const std::map<std::string, LoweringKind> expected{
      {"cpu.loops", LoweringKind::loop_nest},  {"cpu.ttgt", LoweringKind::ttgt},
      {"cpu.strided", LoweringKind::strided},  {"cpu.gett", LoweringKind::gett},
      {"cpu.eigen", LoweringKind::strided},    {"cpu.eigen.ttgt", LoweringKind::ttgt},
      {"vendor.onednn", LoweringKind::strided}};
  int einsum_kernels = 0;
  for (const KernelInfo& k : catalog.kernels()) {
    if (k.op != "einsum") {
      EXPECT_FALSE(k.lowering) << k.id();
      continue;
    }
    ++einsum_kernels;
    ASSERT_TRUE(k.lowering) << k.id();
    if (const auto it = expected.find(k.backend); it != expected.end()) {
      EXPECT_EQ(*k.lowering, it->second) << k.id();
    } else if (k.family == kBlasFamily) {  // blas.<library> and blas.<library>.ttgt
      EXPECT_TRUE(*k.lowering == LoweringKind::strided || *k.lowering == LoweringKind::ttgt)
          << k.id();
    }
  }
  EXPECT_GE(einsum_kernels, static_cast<int>(expected.size()));
}

// Prepared on attention's scores with heads inside the rows (TTGT permutes A and B), each
// kernel that runs it names its steps; every step's note is one of its notes, and TTGT's
// steps are its lapped passes, in order.
TEST(EinsumLoweringKinds, EachPreparedKernelNamesItsStepsByTheirKinds) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels(discover_blas_libraries());
  const Problem p = einsum_problem("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const std::map<std::string, std::vector<LoweringStep>> expected{
      {"cpu.loops", {{StepKind::loop_nest, "inner loop", ""}}},
      {"cpu.ttgt",
       {{StepKind::permute, "A", "permute_A"},
        {StepKind::permute, "B", "permute_B"},
        {StepKind::gemm, "gemm", "gemm"}}},
      {"cpu.strided", {{StepKind::strided_view, "gemm", ""}}},
      {"cpu.gett", {{StepKind::gathered, "gemm", ""}}}};
  int prepared = 0;
  for (const KernelInfo& info : catalog.kernels()) {
    if (info.op != "einsum" || info.device != Device::cpu) continue;
    auto k = catalog.create(info.backend, "einsum");
    if (!k->supports(p, 1)) continue;
    Operands ops = allocate_operands(p);
    k->prepare(p, ops, 1);
    ++prepared;
    const std::vector<LoweringStep> steps = k->lowering_steps();
    ASSERT_FALSE(steps.empty()) << info.id();
    const auto notes = k->notes();
    for (const LoweringStep& s : steps)
      EXPECT_EQ(notes.count(s.note), 1u) << info.id() << ": " << s.note;
    if (const auto it = expected.find(info.backend); it != expected.end()) {
      EXPECT_EQ(steps, it->second) << info.id();
    }
    if (*info.lowering == LoweringKind::ttgt) {
      std::vector<std::string> passes, lapped;
      for (const PassWork& w : k->passes(p)) passes.push_back(w.name);
      for (const LoweringStep& s : steps) lapped.push_back(s.pass);
      EXPECT_EQ(lapped, passes) << info.id();
    }
  }
  EXPECT_GE(prepared, 4);
}

// TTGT permutes only what is out of order: C permuted back where it ends in its batch.
TEST(EinsumLoweringKinds, TtgtsStepsFollowItsPlan) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const Problem p = einsum_problem("bij,bjk->ikb", "b=2,i=3,j=4,k=5");
  auto k = catalog.create("cpu.ttgt", "einsum");
  ASSERT_TRUE(k->supports(p, 1)) << k->supports(p, 1).reason;
  Operands ops = allocate_operands(p);
  k->prepare(p, ops, 1);
  EXPECT_EQ(k->lowering_steps(),
            (std::vector<LoweringStep>{{StepKind::gemm, "gemm", "gemm"},
                                       {StepKind::permute, "C", "permute_C"}}));
}

}  // namespace ridgeline
