// The einsum op (core/src/op_definitions/einsum.cpp): the equation and the extents a user writes,
// each bad one refused in one line naming the problem, and the work model of a contraction.
#include <gtest/gtest.h>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/einsum.hpp"

namespace ridgeline {
namespace {

Problem einsum(const std::string& params, DType dtype = DType::f32) {
  Problem p;
  p.op = "einsum";
  p.params = parse_params(op_definition("einsum"), params);
  p.dtype = dtype;
  return p;
}

// The InputError's one line, or "" where the params are accepted.
std::string refusal(const std::string& params) {
  try {
    einsum(params);
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    return e.what();
  }
  return "";
}

TEST(EinsumOp, AttentionScoresParseIntoOperandsAndExtents) {
  const Problem p = einsum(R"(equation="bthr,bThr->bhtT"/extents="b=8,t=1024,h=16,r=64,T=1024")");
  const EinsumSpec s = einsum_spec(p);
  EXPECT_EQ(s.a, "bthr");
  EXPECT_EQ(s.b, "bThr");
  EXPECT_EQ(s.c, "bhtT");
  EXPECT_EQ(s.contracted(), "r");
  EXPECT_EQ(s.elements(s.c), 8 * 16 * 1024 * 1024);
  // The case name shows the equation and the extents, quoted.
  EXPECT_EQ(params_label(p), R"(equation="bthr,bThr->bhtT"/extents="b=8,t=1024,h=16,r=64,T=1024")");
  const auto ops = op_definition("einsum").operands(p);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].elements, 8 * 1024 * 16 * 64);
  EXPECT_EQ(ops[2].role, OperandRole::output);
}

TEST(EinsumOp, TwoFlopsPerPointOfTheIndexSpaceAndEachOperandOnce) {
  // A GEMM written as einsum has the GEMM's work.
  const WorkModel gemm = op_work(einsum(R"(equation="ij,jk->ik"/extents="i=64,j=32,k=16")"));
  EXPECT_DOUBLE_EQ(gemm.flops, 2.0 * 64 * 32 * 16);
  EXPECT_DOUBLE_EQ(gemm.bytes.at(MemoryLevel::main), 4.0 * (64 * 32 + 32 * 16 + 64 * 16));
  // A sum-only index (k in the first operand only) counts like a contracted one.
  const WorkModel sum_only = op_work(einsum(R"(equation="ik,j->ij"/extents="i=5,j=3,k=11")"));
  EXPECT_DOUBLE_EQ(sum_only.flops, 2.0 * 5 * 3 * 11);
  // An outer product contracts nothing: one product per output, each counted as 2.
  const WorkModel outer = op_work(einsum(R"(equation="i,j->ij"/extents="i=7,j=9")", DType::f64));
  EXPECT_DOUBLE_EQ(outer.flops, 2.0 * 7 * 9);
  EXPECT_DOUBLE_EQ(outer.bytes.at(MemoryLevel::main), 8.0 * (7 + 9 + 63));
}

TEST(EinsumOp, EachBadEquationOrExtentIsOneLineNamingIt) {
  const std::string ext = R"(/extents="i=2,j=3,k=4")";
  EXPECT_EQ(refusal(R"(equation="ij,jk->ik")" + ext), "");
  struct Bad {
    std::string params, says;
  };
  for (const Bad& b : std::vector<Bad>{
           {R"(equation="ij,jk->ii")" + ext, "index 'i' appears twice in the output"},
           {R"(equation="ii,jk->ik")" + ext, "appears twice in the first operand"},
           {R"(equation="ij,jk->iz")" + ext, "output index 'z' is in neither operand"},
           {R"(equation="ij,jk")" + ext, "give the output explicitly"},
           {R"(equation="ij,jk,kl->il")" + ext, "more than two operands"},
           {R"(equation="...ij,jk->ik")" + ext, "broadcasting"},
           {R"(equation="i1,jk->ik")" + ext, "'1' in the first operand is not an index"},
           {R"(equation="ij,jk->ik"/extents="i=2,j=3")", "index 'k' has no extent"},
           {R"(equation="ij,jk->ik"/extents="i=2,j=0,k=4")", "the extent of 'j' is '0'"},
           {R"(equation="ij,jk->ik"/extents="i=2,j=9223372036854775808,k=4")",
            "the extent of 'j' is '9223372036854775808': out of range (at most "
            "9223372036854775807)"},
           {R"(equation="ij,jk->ik"/extents="i=2,j=3,k=4,q=5")", "'q' is given an extent but"},
           {R"(equation="ij,jk->ik"/extents="i=2,i=3,j=3,k=4")", "two extents"},
           {R"(equation="ij,jk->ik"/extents="ij=2")", "not index=extent"},
           {R"(equation="ij,jk->ik")", "attribute 'extents' is missing"},
       }) {
    const std::string why = refusal(b.params);
    EXPECT_NE(why.find(b.says), std::string::npos) << b.params << " -> " << why;
    EXPECT_EQ(why.rfind("einsum: ", 0), 0u) << why;
  }
}

TEST(EinsumOp, TheToleranceGrowsWithTheContractedExtent) {
  const auto tol = [](const char* params) {
    const Problem p = einsum(params);
    return op_definition("einsum").tolerance(p);
  };
  EXPECT_LT(tol(R"(equation="ij,jk->ik"/extents="i=8,j=4,k=8")"),
            tol(R"(equation="ij,jk->ik"/extents="i=8,j=4096,k=8")"));
}

}  // namespace
}  // namespace ridgeline
