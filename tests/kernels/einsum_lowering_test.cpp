// How an einsum becomes GEMMs (kernels/src/einsum/einsum_lowering.hpp): the index groups,
// TTGT's permutes and the bytes they add, and where the copy-free strided view applies or
// which operand would need a copy.
#include "einsum/einsum_lowering.hpp"

#include <gtest/gtest.h>

#include "ridgeline/core/op.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

Problem einsum(const std::string& equation, const std::string& extents) {
  Problem p;
  p.op = "einsum";
  p.dtype = DType::f32;
  p.params = parse_params(op_definition("einsum"),
                          "equation=\"" + equation + "\"/extents=\"" + extents + "\"");
  return p;
}

EinsumSpec spec(const std::string& equation, const std::string& extents) {
  return einsum_spec(einsum(equation, extents));
}

}  // namespace

TEST(EinsumLowering, IndicesFallIntoBatchRowsColumnsAndContracted) {
  const EinsumGroups g = einsum_groups(spec("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6"));
  EXPECT_EQ(g.batch, "bh");
  EXPECT_EQ(g.m, "t");
  EXPECT_EQ(g.n, "T");
  EXPECT_EQ(g.k, "r");
  const EinsumGroups sum = einsum_groups(spec("ik,jk->i", "i=2,j=3,k=4"));
  EXPECT_EQ(sum.summed_b, "j");
  EXPECT_FALSE(gemm_lowering_support(spec("ik,jk->i", "i=2,j=3,k=4")).ok);
}

TEST(EinsumLowering, TtgtCopiesOnlyTheOperandsOutOfOrder) {
  const EinsumSpec gemm = spec("ij,jk->ik", "i=4,j=5,k=6");
  const TtgtPlan plain = ttgt_plan(gemm);
  EXPECT_FALSE(plain.permute_a || plain.permute_b || plain.permute_c);
  EXPECT_EQ(ttgt_added_elements(gemm, plain), 0.0);

  // Heads between the sequence and the head dimension: A and B permuted, C already in order.
  const EinsumSpec heads = spec("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const TtgtPlan p = ttgt_plan(heads);
  EXPECT_EQ(p.a, "bhtr");
  EXPECT_EQ(p.b, "bhrT");
  EXPECT_EQ(p.c, "bhtT");
  EXPECT_TRUE(p.permute_a && p.permute_b);
  EXPECT_FALSE(p.permute_c);
  EXPECT_EQ(p.batch, 8);
  EXPECT_EQ(p.m * p.n * p.k, 3 * 6 * 5);
  EXPECT_EQ(ttgt_added_elements(heads, p), 2.0 * (2 * 3 * 4 * 5 + 2 * 6 * 4 * 5));
}

TEST(EinsumLowering, TheStridedViewReadsOperandsWhereTheyLie) {
  StridedView v;
  // Attention scores: B read transposed, the batch indices walked by their strides.
  ASSERT_TRUE(strided_view(spec("bhqd,bhkd->bhqk", "b=2,h=3,q=5,k=7,d=3"), v).ok);
  EXPECT_FALSE(v.ta);
  EXPECT_TRUE(v.tb);
  EXPECT_EQ(v.lda, 3);
  EXPECT_EQ(v.ldb, 3);
  EXPECT_EQ(v.batches, 6);
  EXPECT_EQ(v.batch_c, (std::vector<std::int64_t>{3 * 5 * 7, 5 * 7}));
  // Heads last in A and B: the leading dimension skips them, no copy.
  ASSERT_TRUE(strided_view(spec("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6"), v).ok);
  EXPECT_EQ(v.lda, 4 * 5);
  EXPECT_EQ(v.ldb, 4 * 5);
  EXPECT_TRUE(v.tb);
  // C = (A B)^T: computed as B^T A^T.
  ASSERT_TRUE(strided_view(spec("ij,kj->ki", "i=5,j=3,k=7"), v).ok);
  EXPECT_TRUE(v.swapped);
  EXPECT_EQ(v.m, 7);
  EXPECT_EQ(v.n, 5);
}

TEST(EinsumLowering, TheStridedViewNamesTheOperandThatNeedsACopy) {
  StridedView v;
  const Support batch_last = strided_view(spec("bij,bjk->ikb", "b=3,i=5,j=7,k=2"), v);
  EXPECT_FALSE(batch_last.ok);
  EXPECT_NE(batch_last.reason.find("C (ikb)"), std::string::npos) << batch_last.reason;
  // The contracted indices in another order in B than in A.
  const Support crossed = strided_view(spec("icd,dcj->ij", "i=2,c=3,d=4,j=5"), v);
  EXPECT_FALSE(crossed.ok);
  EXPECT_NE(crossed.reason.find("B (dcj)"), std::string::npos) << crossed.reason;
  EXPECT_NE(crossed.reason.find("a copy is needed"), std::string::npos) << crossed.reason;
}

TEST(EinsumLowering, EveryLoweringHasTheOpsFlopsAndOnlyTtgtAddsBytes) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const Problem p = einsum("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const WorkModel op = op_work(p);
  for (const char* backend : {"cpu.loops", "cpu.strided", "cpu.ttgt"}) {
    const WorkModel w = catalog.create(backend, "einsum")->work(p);
    EXPECT_EQ(w.flops, op.flops) << backend;
    const double added = w.bytes.at("dram") - op.bytes.at("dram");
    if (std::string(backend) == "cpu.ttgt")
      EXPECT_EQ(added, 4.0 * 2.0 * (2 * 3 * 4 * 5 + 2 * 6 * 4 * 5)) << backend;
    else
      EXPECT_EQ(added, 0.0) << backend;
  }
}

}  // namespace ridgeline
