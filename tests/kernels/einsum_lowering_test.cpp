// How an einsum becomes GEMMs (kernels/src/einsum/einsum_lowering.hpp): the index groups,
// TTGT's permutes and the bytes they add, where the copy-free strided view applies or
// which operand would need a copy, and GETT's offset tables.
#include "einsum/einsum_lowering.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <tuple>

#include "ridgeline/core/op.hpp"
#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"

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

// On AVX-512 a product no wider than 2 zmm (n <= 32 f32, 16 f64: a 1x1 convolution's output
// channels) runs on the 12 x 2 zmm micro-kernel, not half-padded 6 x 4 zmm tiles, and its
// result is the reference's.
TEST(EinsumLowering, NarrowProductsRunOnTheNarrowAvx512Tile) {
  if (!cpu_features().has_avx512())
    GTEST_SKIP() << "this CPU has no AVX-512: the AVX2 tile (16 f32, 8 f64 columns) has no "
                    "narrower form";
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  for (const auto& [dtype, n, tile] :
       std::vector<std::tuple<DType, int, std::string>>{{DType::f32, 32, "gemm_f32_avx512_12x32"},
                                                        {DType::f32, 33, "gemm_f32_avx512_6x64"},
                                                        {DType::f64, 16, "gemm_f64_avx512_12x16"},
                                                        {DType::f64, 17, "gemm_f64_avx512_6x32"}}) {
    Problem p = einsum("ij,jk->ik", fmt::format("i=29,j=7,k={}", n));
    p.dtype = dtype;
    const auto k = catalog.create("cpu.ttgt", "einsum");
    ASSERT_TRUE(k->supports(p, 2).ok);
    Operands ops = allocate_operands(p);
    fill_operands(ops, "normal", 1);
    k->prepare(p, ops, 2);
    k->run();
    EXPECT_NE(k->notes().at("gemm").find(tile), std::string::npos) << k->notes().at("gemm");
    const Validation v = validate(p, ops, 7);
    EXPECT_EQ(v.disposition, Disposition::passed) << tile << ": " << v.message;
  }
}

// With nothing contracted the loop nest runs along C's rows: an outer product, its
// operands the other way round, an elementwise product, and a row whose elements lie apart
// in A (the generic stride), each against the reference, on 1 and 2 threads.
TEST(EinsumLowering, TheLoopNestRunsAProductWithNothingContractedAlongCsRows) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  for (const auto& [equation, extents] :
       std::vector<std::pair<std::string, std::string>>{{"i,j->ij", "i=31,j=9"},
                                                        {"j,i->ij", "i=7,j=33"},
                                                        {"ij,ij->ij", "i=5,j=17"},
                                                        {"ij,j->ji", "i=13,j=6"},
                                                        {"bi,bj->bij", "b=3,i=4,j=19"}})
    for (int threads : {1, 2}) {
      const Problem p = einsum(equation, extents);
      const auto k = catalog.create("cpu.loops", "einsum");
      Operands ops = allocate_operands(p);
      fill_operands(ops, "normal", 1);
      k->prepare(p, ops, threads);
      k->run();
      EXPECT_NE(k->notes().at("inner loop").find("nothing contracted"), std::string::npos);
      const Validation v = validate(p, ops, 7);
      EXPECT_EQ(v.disposition, Disposition::passed) << equation << ": " << v.message;
    }
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

TEST(EinsumLowering, GettReadsEveryOperandThroughItsOffsetTables) {
  // C's order interleaves A's and B's indices (a e c f): no strided view, no copy for GETT.
  const EinsumSpec s = spec("abcd,dbfe->aecf", "a=2,b=3,c=4,d=5,e=6,f=7");
  const GettView v = gett_view(s);
  EXPECT_FALSE(v.swapped);  // f, from B, is C's stride-1 index: tiles stored along it
  EXPECT_EQ(v.m, 2 * 4);
  EXPECT_EQ(v.n, 6 * 7);
  EXPECT_EQ(v.k, 3 * 5);
  ASSERT_EQ(v.batches.size(), 1u);
  // m = (a, c) in C's order: A's strides b*c*d = 60 and d = 5; C's e*c*f = 168 and f = 7.
  EXPECT_EQ(v.layout.a_m, (std::vector<std::int64_t>{0, 5, 10, 15, 60, 65, 70, 75}));
  EXPECT_EQ(v.layout.c_m, (std::vector<std::int64_t>{0, 7, 14, 21, 168, 175, 182, 189}));
  // k = (b, d) in A's order: A's strides c*d = 20 and 1; B's f*e = 42 and b*f*e = 126.
  EXPECT_EQ(v.layout.a_k[1], 1);
  EXPECT_EQ(v.layout.a_k[5], 20);
  EXPECT_EQ(v.layout.b_k[1], 3 * 7 * 6);  // d + 1
  EXPECT_EQ(v.layout.b_k[5], 7 * 6);      // b + 1
  // n = (e, f): B's strides 1 and e = 6; C's c*f = 28 and 1.
  EXPECT_EQ(v.layout.b_n[1], 6);
  EXPECT_EQ(v.layout.b_n[7], 1);
  EXPECT_EQ(v.layout.c_n[1], 1);
  EXPECT_EQ(v.layout.c_n[7], 28);

  // C's stride-1 index from A: the product transposed, B's indices down the rows.
  const GettView t = gett_view(spec("ij,kj->ki", "i=5,j=3,k=7"));
  EXPECT_TRUE(t.swapped);
  EXPECT_EQ(t.m, 7);
  EXPECT_EQ(t.n, 5);
  EXPECT_EQ(t.layout.c_n[1], 1);
  // A batch index last in C: walked by its strides, one product per value.
  const GettView b = gett_view(spec("bij,bjk->ikb", "b=3,i=5,j=7,k=2"));
  ASSERT_EQ(b.batches.size(), 3u);
  EXPECT_EQ(b.batches[1].c, 1);
  EXPECT_EQ(b.batches[2].a, 2 * 5 * 7);
}

TEST(EinsumLowering, EveryLoweringHasTheOpsFlopsAndOnlyTtgtAddsBytes) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const Problem p = einsum("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const WorkModel op = op_work(p);
  for (const char* backend : {"cpu.loops", "cpu.strided", "cpu.gett", "cpu.ttgt", "cpu.eigen"}) {
    const WorkModel w = catalog.create(backend, "einsum")->work(p);
    EXPECT_EQ(w.flops, op.flops) << backend;
    const double added = w.bytes.at(MemoryLevel::main) - op.bytes.at(MemoryLevel::main);
    if (std::string(backend) == "cpu.ttgt")
      EXPECT_EQ(added, 4.0 * 2.0 * (2 * 3 * 4 * 5 + 2 * 6 * 4 * 5)) << backend;
    else
      EXPECT_EQ(added, 0.0) << backend;
  }
}

// TTGT with a BLAS's GEMM: one per library found, TTGT's work model and lapped steps, the
// library named in its notes once it ran.
TEST(EinsumLowering, EachBlasFoundAlsoRunsTtgtWithItsGemm) {
  const std::vector<BlasLibrarySpec> found = discover_blas_libraries();
  if (found.empty()) GTEST_SKIP() << "no CBLAS library found on this machine";
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels(found);
  const Problem p = einsum("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const auto ours = catalog.create("cpu.ttgt", "einsum");
  for (const BlasLibrarySpec& spec : found) {
    const std::string backend = "blas." + spec.name + ".ttgt";
    auto k = catalog.create(backend, "einsum");
    ASSERT_TRUE(k) << backend;
    EXPECT_EQ(k->info().role, KernelRole::vendor);
    EXPECT_EQ(k->work(p).bytes, ours->work(p).bytes) << backend;
    std::vector<std::string> steps;
    for (const PassWork& pass : k->passes(p)) steps.push_back(pass.name);
    EXPECT_EQ(steps, (std::vector<std::string>{"permute_A", "permute_B", "gemm"})) << backend;
    ASSERT_TRUE(k->supports(p, 1)) << k->supports(p, 1).reason;
    Operands ops = allocate_operands(p);
    k->prepare(p, ops, 1);
    k->run();
    EXPECT_NE(k->notes().at("gemm").find(spec.path.string()), std::string::npos)
        << k->notes().at("gemm");
    // Where TTGT would permute nothing, its calls are the library's own lowering's.
    const Support same = k->supports(einsum("bij,bjk->bik", "b=2,i=3,j=4,k=5"), 1);
    EXPECT_FALSE(same.ok) << backend;
    EXPECT_NE(same.reason.find("nothing to permute"), std::string::npos) << same.reason;
    EXPECT_NE(same.reason.find("blas." + spec.name + " makes the same calls"), std::string::npos)
        << same.reason;
    EXPECT_TRUE(k->supports(einsum("ij,kj->ik", "i=3,j=4,k=5"), 1).ok) << backend;
    EXPECT_TRUE(catalog.create("cpu.ttgt", "einsum")
                    ->supports(einsum("bij,bjk->bik", "b=2,i=3,j=4,k=5"), 1)
                    .ok);
  }
}

// Eigen's rank-2 contraction runs where each batch's operands are dense matrices (an outer
// product's single row or column counts), and names the operand that is not one.
TEST(EinsumLowering, EigenNamesTheOperandThatIsNotADenseMatrixPerBatch) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const auto eigen = catalog.create("cpu.eigen", "einsum");
  const Support off = eigen->supports(einsum("bij,bjk->bik", "b=2,i=3,j=4,k=5"), 1);
  if (!off.ok && off.reason.find("built without Eigen") != std::string::npos)
    GTEST_SKIP() << off.reason;
  EXPECT_TRUE(off.ok) << off.reason;
  for (const auto& [equation, extents] :
       std::vector<std::pair<std::string, std::string>>{{"i,j->ij", "i=5,j=7"},
                                                        {"bhqd,bhkd->bhqk", "b=2,h=3,q=4,k=5,d=6"},
                                                        {"ij,kj->ki", "i=3,j=4,k=5"}}) {
    const Support s = eigen->supports(einsum(equation, extents), 2);
    EXPECT_TRUE(s.ok) << equation << ": " << s.reason;
  }
  const Support inner = eigen->supports(einsum("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6"), 1);
  EXPECT_FALSE(inner.ok);
  EXPECT_NE(inner.reason.find("A (bthr) is not a dense matrix"), std::string::npos) << inner.reason;
  const Support apart = eigen->supports(einsum("btd,hdk->bthk", "b=2,t=3,d=4,h=5,k=6"), 1);
  EXPECT_FALSE(apart.ok);
  EXPECT_NE(apart.reason.find("B (hdk)"), std::string::npos) << apart.reason;
}

// Where Eigen's rank-2 form cannot take the operands, TTGT with Eigen's contraction as its GEMM
// step runs them (as TensorFlow's Eigen path does): TTGT's work model and lapped steps, Eigen
// named in the GEMM step's notes, the result the reference's.
TEST(EinsumLowering, EigenRunsEveryOtherEquationBehindTtgtsPermutes) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const Problem p = einsum("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const auto k = catalog.create("cpu.eigen.ttgt", "einsum");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->info().role, KernelRole::vendor);
  const Support s = k->supports(p, 2);
  if (!s.ok && s.reason.find("built without Eigen") != std::string::npos) GTEST_SKIP() << s.reason;
  ASSERT_TRUE(s.ok) << s.reason;
  EXPECT_FALSE(catalog.create("cpu.eigen", "einsum")->supports(p, 2).ok);
  EXPECT_EQ(k->work(p).bytes, catalog.create("cpu.ttgt", "einsum")->work(p).bytes);
  std::vector<std::string> steps;
  for (const PassWork& pass : k->passes(p)) steps.push_back(pass.name);
  EXPECT_EQ(steps, (std::vector<std::string>{"permute_A", "permute_B", "gemm"}));
  Operands ops = allocate_operands(p);
  fill_operands(ops, "normal", 1);
  k->prepare(p, ops, 2);
  k->run();
  const Validation v = validate(p, ops, 7);
  EXPECT_EQ(v.disposition, Disposition::passed) << v.message;
  const std::string gemm = k->notes().at("gemm");
  EXPECT_NE(gemm.find("Eigen"), std::string::npos) << gemm;
  EXPECT_NE(gemm.find("8 products of 3x6x5"), std::string::npos) << gemm;
  // Where TTGT would permute nothing, cpu.eigen makes the same calls.
  const Support same = k->supports(einsum("ij,jk->ik", "i=3,j=4,k=5"), 1);
  EXPECT_FALSE(same.ok);
  EXPECT_NE(same.reason.find("nothing to permute"), std::string::npos) << same.reason;
  EXPECT_NE(same.reason.find("cpu.eigen makes the same calls"), std::string::npos) << same.reason;
}

// oneDNN's matmul takes the strided view with every batch index a dimension of its own: one
// primitive, whatever the batch strides; refused where a copy is needed, for f64 and past
// oneDNN's dimension limit, each with the reason.
TEST(EinsumLowering, OnednnRunsTheStridedViewInOnePrimitiveAndSaysWhereItCannot) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const auto onednn = catalog.create("vendor.onednn", "einsum");
  Problem p = einsum("bthr,bThr->bhtT", "b=2,t=3,h=4,r=5,T=6");
  const Support s = onednn->supports(p, 2);
  if (!s.ok && s.reason.find("oneDNN is not built in") != std::string::npos)
    GTEST_SKIP() << s.reason;
  ASSERT_TRUE(s.ok) << s.reason;
  Operands ops = allocate_operands(p);
  onednn->prepare(p, ops, 2);
  onednn->run();
  const auto notes = onednn->notes();
  EXPECT_EQ(notes.at("contraction"), "8 products of 3x6x5 (lda 20, ldb 20, transposed)");
  EXPECT_FALSE(notes.at("implementation").empty());

  p.dtype = DType::f64;
  EXPECT_FALSE(onednn->supports(p, 1).ok);
  const Support apart = onednn->supports(einsum("btd,hdk->bthk", "b=2,t=3,d=4,h=5,k=6"), 1);
  EXPECT_FALSE(apart.ok);
  EXPECT_NE(apart.reason.find("B (hdk)"), std::string::npos) << apart.reason;
  const Support deep =
      onednn->supports(einsum("abcdefghijkmn,abcdefghijknp->abcdefghijkmp",
                              "a=1,b=1,c=1,d=1,e=1,f=1,g=1,h=1,i=1,j=1,k=1,m=2,n=3,p=2"),
                       1);
  EXPECT_FALSE(deep.ok);
  EXPECT_NE(deep.reason.find("11 batch indices (abcdefghijk)"), std::string::npos) << deep.reason;
}

}  // namespace ridgeline
