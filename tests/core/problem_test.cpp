// The op model: the registry, params checking and labels, and each op's work model.
#include "ridgeline/core/problem.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/ops/eltwise_chain.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {

namespace {

Problem problem(const std::string& op, const std::string& params, DType dtype = DType::f32) {
  Problem p;
  p.op = op;
  p.params = parse_params(op_definition(op), params);
  p.dtype = dtype;
  return p;
}

std::string error_of(const std::string& op, const std::string& params) {
  try {
    parse_params(op_definition(op), params);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Problem, GemmWorkIsTwoMnkFlopsAndEachOperandOnce) {
  Problem p = gemm_problem({3, 5, 7, 1}, Layout::NN, DType::f64);
  WorkModel w = op_work(p);
  EXPECT_DOUBLE_EQ(w.flops, 2.0 * 3 * 5 * 7);
  EXPECT_DOUBLE_EQ(w.bytes.at(MemoryLevel::main), (3 * 7 + 7 * 5 + 3 * 5) * 8.0);
  p = gemm_problem({3, 5, 7, 4}, Layout::NN, DType::f32);
  EXPECT_DOUBLE_EQ(op_work(p).bytes.at(MemoryLevel::main), (3 * 7 + 7 * 5 + 3 * 5) * 4.0 * 4);
  EXPECT_EQ(operand_bytes(p), (3u * 7 + 7 * 5 + 3 * 5) * 4 * 4);
}

TEST(Problem, LowPrecisionInputsStoreCInTheirAccumulatorType) {
  Problem p = gemm_problem({3, 5, 7, 1}, Layout::NN, DType::bf16);
  EXPECT_DOUBLE_EQ(op_work(p).bytes.at(MemoryLevel::main), (3 * 7 + 7 * 5) * 2.0 + 3 * 5 * 4.0);
  p.dtype = DType::i8;
  EXPECT_DOUBLE_EQ(op_work(p).bytes.at(MemoryLevel::main), (3 * 7 + 7 * 5) * 1.0 + 3 * 5 * 4.0);
  EXPECT_EQ(output_dtype(DType::i8), DType::i32);
  EXPECT_EQ(output_dtype(DType::tf32), DType::f32);
  EXPECT_EQ(output_dtype(DType::f64), DType::f64);
  EXPECT_EQ(size_of(DType::tf32), 4u);
  EXPECT_EQ(unit_roundoff(DType::i8), 0.0);
}

TEST(DType, HalfPrecisionConversionsRoundToNearestEven) {
  EXPECT_EQ(to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(from_bf16(0x3f80), 1.0f);
  // 1 + 2^-8 is halfway between two bf16 values: ties go to the even one (1.0).
  EXPECT_EQ(to_bf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);  // halfway, rounds up to even
  EXPECT_TRUE(std::isnan(from_bf16(to_bf16(NAN))));
  EXPECT_EQ(from_bf16(to_bf16(-3.5f)), -3.5f);
  EXPECT_EQ(to_f16(1.0f), 0x3c00);
  EXPECT_EQ(from_f16(0x3c00), 1.0f);
  EXPECT_EQ(from_f16(to_f16(65504.0f)), 65504.0f);  // the largest f16
  EXPECT_TRUE(std::isinf(from_f16(to_f16(1e6f))));
  EXPECT_EQ(from_f16(0x0001), 0x1p-24f);  // smallest subnormal
}

TEST(Problem, NamesRoundTrip) {
  for (DType d : all_dtypes()) EXPECT_EQ(parse_dtype(to_string(d)), d);
  for (Layout l : {Layout::NN, Layout::NT, Layout::TN, Layout::TT})
    EXPECT_EQ(parse_layout(to_string(l)), l);
  EXPECT_FALSE(parse_dtype("f8"));
  EXPECT_FALSE(parse_dtype("i32"));  // an output type only
  EXPECT_FALSE(parse_layout("nn"));
  EXPECT_TRUE(transposes_a(Layout::TN));
  EXPECT_FALSE(transposes_b(Layout::TN));
}

TEST(OpRegistry, EveryOpIsCompleteAndItsExampleIsValid) {
  std::vector<std::string> names;
  for (const auto& op : op_registry()) {
    names.push_back(op.name);
    if (op.measured_by_caller) {  // callable: no operands, no work, no tolerance of its own
      const Problem p = example_problem(op, DType::f32);
      EXPECT_TRUE(op.operands(p).empty() && op_work(p).flops == 0 && !op.tolerance) << op.name;
      EXPECT_EQ(params_label(p), "") << op.name;
      continue;
    }
    EXPECT_TRUE(op.operands && op.work && op.tolerance) << op.name;
    EXPECT_FALSE(op.dtypes.empty()) << op.name;
    const Problem p = example_problem(op, op.dtypes.front());
    EXPECT_GT(op_work(p).flops, 0) << op.name;
    EXPECT_GT(operand_bytes(p), 0u) << op.name;
    EXPECT_GT(op.tolerance(p), 0) << op.name;
    EXPECT_LT(op.tolerance(p), 1e-2) << op.name;
    // bf16 is storage; the arithmetic is f32: a few bf16 ulps at most, even over long rows.
    if (std::find(op.dtypes.begin(), op.dtypes.end(), DType::bf16) != op.dtypes.end()) {
      Problem big = example_problem(op, DType::bf16);
      for (auto& [name, value] : big.params.dims)
        if (name != "batch" && name != "L" && name != "causal") value = 4096;
      EXPECT_LT(op.tolerance(big), 0.05) << op.name << " bf16";
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"gemm", "gemm_bias_act", "softmax", "layernorm",
                                             "rmsnorm", "eltwise_chain", "attention", "einsum",
                                             "allreduce", "tp_gemm", "callable"}));
  EXPECT_EQ(find_op("conv"), nullptr);
  EXPECT_THROW(op_definition("conv"), InputError);
}

TEST(OpParams, LabelsListDimsThenEachAttributeAndLeaveOutDefaults) {
  EXPECT_EQ(params_label(gemm_problem({1, 2, 3, 1})), "m=1,n=2,k=3/layout=NN");
  EXPECT_EQ(params_label(gemm_problem({1, 2, 3, 4}, Layout::NT)), "m=1,n=2,k=3,batch=4/layout=NT");
  EXPECT_EQ(params_label(problem("softmax", "cols=7,rows=3")), "rows=3,cols=7");
  EXPECT_EQ(params_label(problem("attention", "heads=8,seq=4096,head_dim=64/causal=1")),
            "heads=8,seq=4096,head_dim=64/causal=1");
  EXPECT_EQ(params_label(problem("gemm_bias_act", "m=2,n=3,k=4")), "m=2,n=3,k=4/act=gelu_tanh");
}

TEST(OpParams, BadParamsAreOneLineNamingOpAndParameter) {
  EXPECT_EQ(error_of("softmax", "rows=4"),
            "softmax: dimension 'cols' is missing (elements per row)");
  EXPECT_EQ(error_of("softmax", "rows=4,cols=0"), "softmax: cols=0 is below its minimum of 1");
  EXPECT_EQ(error_of("softmax", "rows=4,cols=8,seq=2"),
            "softmax: unknown parameter 'seq' (dimensions: rows, cols; attributes: none)");
  EXPECT_EQ(error_of("softmax", "rows=4,cols=x8"), "softmax: cols=x8 is not a whole number");
  EXPECT_EQ(error_of("attention", "heads=1,seq=2,head_dim=2/causal=yes"),
            "attention: causal=yes is not one of 0, 1");
  EXPECT_EQ(error_of("eltwise_chain", "n=8,L=33"),
            "eltwise_chain: L=33 is above its maximum of 32");
  EXPECT_EQ(error_of("gemm", "m=1,n=1,k=1,,"), "gemm: an empty parameter in 'm=1,n=1,k=1,,'");
  EXPECT_EQ(error_of("gemm", "m=1,n"), "gemm: 'n' is not name=value");
}

namespace {

// An op with free-form attributes, as an einsum op declares its equation: built here, not
// registered, since the params grammar needs only its definition.
std::string equation_check(std::string_view value) {
  if (value.find("->") == std::string_view::npos) return "an equation needs '->' and its output";
  return "";
}
std::string anything(std::string_view) {
  return "";
}
OpDefinition contraction() {
  OpDefinition op;
  op.name = "contraction";
  op.dims = {{"n", 1, 8, "an extent", std::nullopt}};
  op.attrs = {{"equation", {}, "the contraction in NumPy's notation", &equation_check},
              {"note", {"none"}, "any text", &anything},
              {"layout", {"NN", "NT"}, "a fixed list, as before"}};
  return op;
}

}  // namespace

// A free-form value holds the separators when quoted, is written quoted only where it must
// be, reads back to the same params, is checked by its op, and has no default unless given.
TEST(OpParams, AFreeFormAttributeIsQuotedWhereItMustBeAndRoundTrips) {
  const OpDefinition op = contraction();
  const OpParams p = parse_params(op, R"(n=4/equation="bthr,bThr->bhtT"/note=plain)");
  EXPECT_EQ(p.attr("equation"), "bthr,bThr->bhtT");
  EXPECT_EQ(p.attr("note"), "plain");
  EXPECT_EQ(p.attr("layout"), "NN");
  const std::string label = params_label(op, p);
  EXPECT_EQ(label, R"(n=4/equation="bthr,bThr->bhtT"/note=plain/layout=NN)");
  EXPECT_EQ(parse_params(op, label), p);
  // Quotes and backslashes inside, escaped; an empty value quoted.
  OpParams odd = p;
  odd.attrs["note"] = R"(a "b" \ c=d)";
  EXPECT_EQ(quoted_param(odd.attrs["note"]), R"("a \"b\" \\ c=d")");
  EXPECT_EQ(parse_params(op, params_label(op, odd)), odd);
  EXPECT_EQ(quoted_param(""), R"("")");
  EXPECT_EQ(quoted_param("ij->i"), "ij->i");  // nothing to quote
  EXPECT_EQ(quoted_param("a\tb"), "\"a\tb\"");
  // Every dimension at its default: the label starts with the attributes and reads back.
  const OpParams defaults = parse_params(op, R"(equation="ij->i")");
  EXPECT_EQ(params_label(op, defaults), "equation=ij->i/note=none/layout=NN");
  EXPECT_EQ(parse_params(op, params_label(op, defaults)), defaults);
}

TEST(OpParams, AFreeFormAttributeIsRefusedInOneLineWithItsReason) {
  const OpDefinition op = contraction();
  const auto error = [&](const std::string& text) {
    try {
      parse_params(op, text);
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      return what;
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error(R"(equation="ij,jk")"),
            R"(contraction: equation="ij,jk": an equation needs '->' and its output)");
  EXPECT_EQ(error("n=2"),
            "contraction: attribute 'equation' is missing (the contraction in "
            "NumPy's notation)");
  EXPECT_NE(error(R"(equation="ij,jk->ik)").find("is not closed"), std::string::npos);
  EXPECT_NE(error(R"(equation="ij->i"x)").find("continues after its closing quote"),
            std::string::npos);
  // Unquoted, the comma splits it: the second half is no parameter.
  EXPECT_NE(error("equation=ij,jk->ik").find("'jk->ik' is not name=value"), std::string::npos);
  EXPECT_NE(error(R"(equation="ij->i"/layout=TT)").find("layout=TT is not one of NN, NT"),
            std::string::npos);
}

TEST(OpParams, AnOverrideAppliesOnlyWhereTheOpDeclaresEveryName) {
  Problem s = problem("softmax", "rows=4,cols=8");
  EXPECT_FALSE(apply_params(s, "m=16,n=16,k=16"));
  EXPECT_EQ(params_label(s), "rows=4,cols=8");
  EXPECT_TRUE(apply_params(s, "cols=4099"));
  EXPECT_EQ(params_label(s), "rows=4,cols=4099");
  Problem g = gemm_problem({8, 8, 8, 1});
  EXPECT_TRUE(apply_params(g, "layout=TT"));
  EXPECT_EQ(gemm_layout(g), Layout::TT);
  EXPECT_THROW(apply_params(g, "m=0"), InputError);
}

// Fusion removes traffic, never work: the same FLOPs both ways, fewer bytes fused.
TEST(OpWork, FusedMovesNoMoreBytesThanUnfusedForTheSameFlops) {
  for (const auto& [op, params] : std::vector<std::pair<std::string, std::string>>{
           {"gemm", "m=64,n=48,k=32"},
           {"gemm_bias_act", "m=64,n=48,k=32/act=relu"},
           {"softmax", "rows=3,cols=1000"},
           {"layernorm", "rows=1,cols=7"},
           {"rmsnorm", "rows=64,cols=4096"},
           {"eltwise_chain", "n=1000,L=7"},
           {"attention", "heads=2,seq=37,head_dim=16/causal=1"}}) {
    const Problem p = problem(op, params);
    const WorkModel fused = op_work(p), unfused = op_unfused_work(p);
    EXPECT_EQ(fused.flops, unfused.flops) << op;
    EXPECT_LE(fused.bytes.at(MemoryLevel::main), unfused.bytes.at(MemoryLevel::main)) << op;
  }
  EXPECT_EQ(op_work(gemm_problem({64, 48, 32, 1})), op_unfused_work(gemm_problem({64, 48, 32, 1})));
}

TEST(OpWork, TheEltwiseChainIsEqualAtLengthOneAndGrowsApartWithLength) {
  const Problem one = problem("eltwise_chain", "n=1000,L=1");
  EXPECT_EQ(op_work(one).bytes.at(MemoryLevel::main),
            op_unfused_work(one).bytes.at(MemoryLevel::main));
  EXPECT_DOUBLE_EQ(op_work(one).bytes.at(MemoryLevel::main), 2 * 1000 * 4.0);
  const Problem eight = problem("eltwise_chain", "n=1000,L=8");
  EXPECT_DOUBLE_EQ(op_unfused_work(eight).bytes.at(MemoryLevel::main), 8 * 2 * 1000 * 4.0);
  EXPECT_DOUBLE_EQ(op_work(eight).flops, 1000 * eltwise_chain_flops_per_element(8));
  EXPECT_DOUBLE_EQ(eltwise_chain_flops_per_element(8), 2 * (2 + 1 + 1 + 2.0));
  EXPECT_DOUBLE_EQ(eltwise_chain_flops_per_element(3), 2 + 1 + 1.0);
}

TEST(OpWork, RowOpsCountTheirPassesAndOperands) {
  const Problem s = problem("softmax", "rows=2,cols=10");
  EXPECT_DOUBLE_EQ(op_work(s).flops, 5 * 20.0);
  EXPECT_DOUBLE_EQ(op_work(s).bytes.at(MemoryLevel::main), 2 * 20 * 4.0);
  EXPECT_DOUBLE_EQ(op_unfused_work(s).bytes.at(MemoryLevel::main), (8 * 20 + 4 * 2) * 4.0);
  const Problem l = problem("layernorm", "rows=2,cols=10");
  EXPECT_DOUBLE_EQ(op_work(l).bytes.at(MemoryLevel::main),
                   (2 * 20 + 2 * 10) * 4.0);  // x, y, gamma, beta
  EXPECT_EQ(operand_bytes(l), (2u * 20 + 2 * 10) * 4);
  const Problem r = problem("rmsnorm", "rows=2,cols=10", DType::bf16);
  EXPECT_DOUBLE_EQ(op_work(r).bytes.at(MemoryLevel::main), (2 * 20 + 10) * 2.0);
}

TEST(OpWork, CausalAttentionCountsTheLowerTriangleAndTheUnfusedScores) {
  const Problem full = problem("attention", "heads=1,seq=4,head_dim=8");
  const Problem causal = problem("attention", "heads=1,seq=4,head_dim=8/causal=1");
  EXPECT_DOUBLE_EQ(op_work(full).flops, 16 * (4 * 8 + 6.0));
  EXPECT_DOUBLE_EQ(op_work(causal).flops, 10 * (4 * 8 + 6.0));
  EXPECT_DOUBLE_EQ(op_work(full).bytes.at(MemoryLevel::main), 4 * 4 * 8 * 4.0);
  // The unfused chain: scale Q (2 seq x head_dim), the score GEMM (Q, K in, S out), the
  // mask (causal: S in and out), softmax (S in, P out), the context GEMM (P, V in, O out).
  EXPECT_DOUBLE_EQ(op_unfused_work(full).bytes.at(MemoryLevel::main), (6 * 4 * 8 + 4 * 16) * 4.0);
  EXPECT_DOUBLE_EQ(op_unfused_work(causal).bytes.at(MemoryLevel::main), (6 * 4 * 8 + 6 * 16) * 4.0);
  std::vector<std::string> names;
  for (const auto& pass : op_unfused_passes(causal)) names.push_back(pass.name);
  EXPECT_EQ(names, (std::vector<std::string>{"scale_q", "scores_gemm", "mask", "softmax",
                                             "context_gemm"}));
  EXPECT_EQ(op_unfused_passes(full).size(), 4u);  // no mask
}

// The unfused bytes are the passes' bytes together, for every op with a chain; the row-wise
// chains execute exactly the op's FLOPs, pass by pass; names are unique within a chain, so
// each pass's time metric names one pass.
TEST(OpWork, TheUnfusedChainIsItsPassesTogether) {
  for (const auto& [op, params] : std::vector<std::pair<std::string, std::string>>{
           {"gemm_bias_act", "m=64,n=48,k=32/act=gelu_tanh"},
           {"softmax", "rows=3,cols=1000"},
           {"layernorm", "rows=5,cols=7"},
           {"rmsnorm", "rows=64,cols=4096"},
           {"eltwise_chain", "n=1000,L=7"},
           {"attention", "heads=2,seq=37,head_dim=16/causal=1"}}) {
    const Problem p = problem(op, params);
    const std::vector<PassWork> passes = op_unfused_passes(p);
    ASSERT_GE(passes.size(), 2u) << op;
    double bytes = 0, flops = 0;
    std::set<std::string> names;
    for (const auto& pass : passes) {
      bytes += pass.work.bytes.at(MemoryLevel::main);
      flops += pass.work.flops;
      EXPECT_TRUE(names.insert(pass.name).second) << op << " " << pass.name;
      EXPECT_GT(pass.work.bytes.at(MemoryLevel::main), 0) << op << " " << pass.name;
    }
    EXPECT_DOUBLE_EQ(bytes, op_unfused_work(p).bytes.at(MemoryLevel::main)) << op;
    if (op != "attention") {
      EXPECT_DOUBLE_EQ(flops, op_work(p).flops) << op;
    }
  }
  EXPECT_TRUE(op_unfused_passes(gemm_problem({64, 48, 32, 1})).empty());
  EXPECT_EQ(pass_time_metric(2, "exp"), "pass_time.3.exp");
}

// rmsnorm's unfused chain squares x in a pass of its own (as x.pow(2).mean() does): 7
// arrays' worth of elements, a row vector twice, gamma once.
TEST(OpWork, RmsnormCountsItsSquarePass) {
  const Problem r = problem("rmsnorm", "rows=2,cols=10");
  EXPECT_DOUBLE_EQ(op_unfused_work(r).bytes.at(MemoryLevel::main), (7 * 20 + 10 + 2 * 2) * 4.0);
}

}  // namespace ridgeline
