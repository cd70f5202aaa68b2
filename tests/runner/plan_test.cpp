#include "ridgeline/runner/plan.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/ops/einsum_path.hpp"
#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/runner/suites.hpp"
#include "test_kernels.hpp"

namespace ridgeline {

namespace {
std::string plan_error(const PlanRequest& req) {
  try {
    plan_cases(testing::catalog_with_test_kernels(), req);
  } catch (const InputError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    return msg;
  }
  ADD_FAILURE() << "no error";
  return "";
}

std::string shape_error(const std::string& text) {
  try {
    parse_shape(text);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << text;
  return "";
}
}  // namespace

TEST(Plan, UnknownNamesAreErrorsListingTheKnownOnes) {
  PlanRequest r;
  r.suite = "nightly";
  EXPECT_NE(
      plan_error(r).find("unknown suite 'nightly' (known: smoke, default, ladder, blas, "
                         "fusion, gpu, gpu-fusion, gpu-patterns, einsum, collectives, patterns)"),
      std::string::npos);
  r = {};
  r.backends = {"cpu.magic"};
  EXPECT_NE(plan_error(r).find("unknown backend 'cpu.magic'"), std::string::npos);
  r = {};
  r.dtypes = {"f8"};
  EXPECT_NE(plan_error(r).find("unknown dtype 'f8' (known: f32, f64, tf32, bf16, f16, i8)"),
            std::string::npos);
  r = {};
  r.patterns = {"ones"};
  EXPECT_NE(plan_error(r).find("unknown pattern 'ones'"), std::string::npos);
  r = {};
  r.layouts = {"NX"};
  EXPECT_NE(plan_error(r).find("unknown layout 'NX'"), std::string::npos);
  r = {};
  r.threads = {0};
  EXPECT_NE(plan_error(r).find("--threads 0"), std::string::npos);
}

TEST(Plan, InvalidRegexIsAnError) {
  PlanRequest r;
  r.filter = "gemm/(f32";
  EXPECT_NE(plan_error(r).find("--filter 'gemm/(f32': invalid regular expression"),
            std::string::npos);
}

TEST(Plan, BadSizesAreErrorsNamingTheInput) {
  EXPECT_NE(shape_error("0").find("--shape 0: sizes must be positive"), std::string::npos);
  EXPECT_NE(shape_error("-5").find("--shape -5: sizes must be positive, got -5"),
            std::string::npos);
  EXPECT_NE(shape_error("abc").find("'abc' is not a whole number"), std::string::npos);
  EXPECT_NE(shape_error("64x64").find("expected N or MxNxK"), std::string::npos);
  EXPECT_NE(shape_error("1x2xk").find("'k' is not a whole number"), std::string::npos);
  EXPECT_NE(shape_error("99999999999").find("32-bit"), std::string::npos);
  EXPECT_EQ(parse_shape("37x53x29"), "m=37,n=53,k=29");
  EXPECT_EQ(parse_shape("256"), "m=256,n=256,k=256");
}

TEST(Plan, ProblemLargerThanMemoryIsRefusedBeforeAllocating) {
  PlanRequest r;
  r.backends = {"cpu.naive"};
  r.params = {"m=1048576,n=1048576,k=1048576"};
  std::string msg = plan_error(r);
  EXPECT_NE(msg.find("GiB for its operands"), std::string::npos) << msg;
  EXPECT_NE(msg.find("m=1048576"), std::string::npos) << msg;
}

TEST(Plan, FilterAndOverridesShapeThePlan) {
  PlanRequest r;
  r.suite = "smoke";
  r.filter = "gemm/cpu\\.tiled/f32/.*";
  auto plan = plan_cases(testing::catalog_with_test_kernels(), r);
  ASSERT_FALSE(plan.empty());
  for (const auto& c : plan) {
    EXPECT_EQ(c.backend, "cpu.tiled");
    EXPECT_EQ(c.problem.dtype, DType::f32);
  }
  r.params = {"m=100,n=100,k=100"};
  r.layouts = {"NN", "TN"};
  r.patterns = {"uniform"};
  plan = plan_cases(testing::catalog_with_test_kernels(), r);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[1].name(),
            "gemm/cpu.tiled/f32/m=100,n=100,k=100/layout=TN/pattern=uniform/threads=1");
}

TEST(Plan, AParamsOverrideNoOpOfTheSuiteHasIsRefusedNotDropped) {
  PlanRequest r;
  r.suite = "smoke";
  r.params = {"rows=4096,cols=4096"};
  EXPECT_EQ(plan_error(r),
            "--params rows=4096,cols=4096: no op of suite 'smoke' has these parameters (its ops: "
            "gemm)");
  r.params = {"m=0,n=1,k=1"};
  EXPECT_EQ(plan_error(r), "gemm: m=0 is below its minimum of 1");
}

TEST(Plan, PatternFamiliesAndFpEnvironmentsExpandTheCasesAndNameThem) {
  PlanRequest r;
  r.suite = "smoke";
  r.filter = "gemm/cpu\\.naive/f32/m=64.*";
  r.patterns = {"sparse90", "subnormal"};
  r.fp_envs = {"ieee", "ftz_daz"};
  auto plan = plan_cases(testing::catalog_with_test_kernels(), r);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].name(),
            "gemm/cpu.naive/f32/m=64,n=64,k=64/layout=NN/pattern=sparse90/threads=1");
  EXPECT_EQ(plan[3].name(),
            "gemm/cpu.naive/f32/m=64,n=64,k=64/layout=NN/pattern=subnormal/fp=ftz_daz/threads=1");
  r.patterns = {"sparse100"};
  EXPECT_NE(plan_error(r).find("unknown pattern 'sparse100' (known: normal,"), std::string::npos)
      << plan_error(r);
  r.patterns = {};
  r.fp_envs = {"fast"};
  EXPECT_NE(plan_error(r).find("unknown fp-env 'fast' (known: ieee, ftz_daz)"), std::string::npos)
      << plan_error(r);
}

TEST(Plan, ColdOperandsAreAnAxisNamedInTheCase) {
  PlanRequest r;
  r.suite = "smoke";
  r.filter = "gemm/cpu\\.naive/f32/m=64.*";
  r.caches = {"warm", "cold"};
  const auto plan = plan_cases(testing::catalog_with_test_kernels(), r);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].name(), "gemm/cpu.naive/f32/m=64,n=64,k=64/layout=NN/pattern=normal/threads=1");
  EXPECT_EQ(plan[1].name(),
            "gemm/cpu.naive/f32/m=64,n=64,k=64/layout=NN/pattern=normal/cache=cold/threads=1");
  r.caches = {"hot"};
  EXPECT_NE(plan_error(r).find("unknown cache 'hot' (known: warm, cold)"), std::string::npos)
      << plan_error(r);
}

TEST(Suites, ThePatternsSuitePairsSubnormalInputsUnderBothEnvironments) {
  const SuiteDefinition* s = find_suite("patterns");
  ASSERT_TRUE(s);
  int ftz_subnormal = 0, ieee_subnormal = 0;
  for (const CaseSpec& c : s->expand(testing::catalog_with_test_kernels(), 2)) {
    if (c.problem.pattern != "subnormal") continue;
    (c.fp_env == FpEnv::ftz_daz ? ftz_subnormal : ieee_subnormal)++;
  }
  EXPECT_GT(ieee_subnormal, 0);
  EXPECT_EQ(ftz_subnormal, ieee_subnormal);
}

// The einsum suite records its chains and holds every step of their paths on the lowerings:
// the reports measure the paths from those cases.
TEST(Suites, TheEinsumSuiteHoldsEveryStepOfItsChainsPaths) {
  const SuiteDefinition* s = find_suite("einsum");
  ASSERT_TRUE(s && s->einsum_networks);
  ASSERT_FALSE(s->einsum_networks().empty());
  std::set<std::string> cases;  // dtype and params of every cpu.ttgt case
  for (const CaseSpec& c : s->expand(KernelCatalog::with_builtin_kernels({}), 2))
    if (c.backend == "cpu.ttgt")
      cases.insert(std::string(to_string(c.problem.dtype)) + " " + params_label(c.problem));
  for (const EinsumNetworkRun& r : s->einsum_networks()) {
    const EinsumNetwork n = einsum_network(r.equation, r.extents);
    for (DType dtype : {DType::f32}) {  // the steps in f32, one thread (einsum_suite.cpp)
      // No runners-up in the suite (its time): the optimal, greedy and left-to-right paths.
      const std::vector<EinsumPath> paths = einsum_paths(n, size_of(dtype), 0);
      // The chain: the optimal path and the order written; the bilinear form: one path.
      ASSERT_GE(paths.size(), r.equation == "ij,jk,kl->il" ? 2u : 1u) << r.equation;
      for (const EinsumPath& p : paths)
        for (const EinsumPathStep& st : p.steps)
          EXPECT_TRUE(cases.count(fmt::format("{} equation=\"{}\"/extents=\"{}\"", to_string(dtype),
                                              st.equation, step_extents(n, st.equation))))
              << to_string(dtype) << " " << st.equation;
    }
  }
  for (const auto& other : suites())
    EXPECT_EQ(other.einsum_networks != nullptr, other.name == "einsum") << other.name;
}

TEST(Plan, PackedAliasResolvesToTheIsaOfThisCpu) {
  PlanRequest r;
  r.suite = "smoke";
  r.backends = {"cpu.packed"};
  auto plan = plan_cases(testing::catalog_with_test_kernels(), r);
  ASSERT_FALSE(plan.empty());
  EXPECT_EQ(plan[0].backend, *best_packed_backend(false));
}

TEST(Suites, EveryCaseOfEverySuiteNamesAKnownBackend) {
  auto catalog = testing::catalog_with_test_kernels();
  for (const auto& s : suites())
    for (const auto& c : s.expand(catalog, 2))
      EXPECT_TRUE(catalog.find(c.backend, c.problem.op)) << s.name << ": " << c.backend;
}

// With every BLAS library found here (each has a GEMM kernel and einsum lowerings of the same
// family), no suite holds a case twice or a backend its op lacks.
TEST(Suites, NoSuiteHoldsACaseTwiceWithTheBlasLibrariesFound) {
  const auto catalog = KernelCatalog::with_builtin_kernels(discover_blas_libraries());
  for (const auto& s : suites()) {
    std::set<std::string> names;
    for (const auto& c : s.expand(catalog, 2)) {
      EXPECT_TRUE(names.insert(c.name()).second) << s.name << ": " << c.name();
      EXPECT_TRUE(catalog.find(c.backend, c.problem.op)) << s.name << ": " << c.name();
    }
  }
}

}  // namespace ridgeline

namespace ridgeline {

// Each bf16 case of the fusion suite has its fused/unfused partner in bf16 and an f32 twin,
// so the fusion table pairs it and the report sets bf16 beside f32.
TEST(Suites, TheFusionSuitePairsItsBf16CasesAndKeepsTheirF32Twins) {
  const SuiteDefinition* s = find_suite("fusion");
  ASSERT_TRUE(s);
  std::set<std::string> names;
  const auto cases = s->expand(testing::catalog_with_test_kernels(), 2);
  for (const CaseSpec& c : cases) names.insert(c.name());
  int bf16 = 0;
  for (const CaseSpec& c : cases) {
    if (c.problem.dtype != DType::bf16) continue;
    ++bf16;
    CaseSpec twin = c;
    twin.problem.dtype = DType::f32;
    EXPECT_TRUE(names.count(twin.name())) << c.name();
    if (c.backend != "cpu.fused" && c.backend != "cpu.unfused") continue;
    CaseSpec partner = c;
    partner.backend = c.backend == "cpu.fused" ? "cpu.unfused" : "cpu.fused";
    EXPECT_TRUE(names.count(partner.name())) << c.name();
  }
  // 3 row ops, gemm_bias_act and attention, fused and unfused, 1 and 2 threads
  EXPECT_GE(bf16, 10 * 2);
  // causal attention in bf16, 1 and 2 threads, for each own kernel
  for (const char* backend : {"cpu.fused", "cpu.unfused"}) {
    int attention = 0;
    for (const CaseSpec& c : cases)
      attention +=
          c.backend == backend && c.problem.op == "attention" && c.problem.dtype == DType::bf16;
    EXPECT_EQ(attention, 2) << backend;
  }
}

}  // namespace ridgeline
