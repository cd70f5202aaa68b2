// A network's paths measured (analysis/einsum_paths.hpp): each path's time is the sum of its
// steps' fastest lowerings, set beside its predicted FLOPs; the verdict says whether the
// fewest-FLOP path was the fastest, or which of its steps lost it, and what a framework's
// order with TTGT at each step cost. Comparisons are written here as a Run would give them.
#include "ridgeline/analysis/einsum_paths.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace ridgeline {

namespace {

EinsumComparison compared(const std::string& equation, const std::string& extents,
                          const std::string& best, double seconds, Bound bound,
                          double ttgt_seconds) {
  EinsumComparison c;
  c.equation = equation;
  c.extents = extents;
  c.best = best;
  EinsumLowering fastest;
  fastest.backend = best;
  fastest.ran = true;
  fastest.seconds = seconds;
  fastest.achieved = 1e9;
  fastest.bound = bound;
  c.lowerings.push_back(fastest);
  EinsumLowering ttgt = fastest;
  ttgt.backend = "cpu.ttgt";
  ttgt.kind = LoweringKind::ttgt;  // our own (ladder) TTGT: the framework's lowering
  c.framework = ttgt.backend;
  ttgt.seconds = ttgt_seconds;
  c.lowerings.push_back(ttgt);
  return c;
}

const EinsumNetwork& chain() {
  static const EinsumNetwork n = einsum_network("ij,jk,kl->il", "i=1000,j=10,k=1000,l=10");
  return n;
}

}  // namespace

TEST(EinsumPaths, EachPathSumsItsStepsFastestLoweringsBesideItsFlops) {
  const std::vector<EinsumPath> paths = einsum_paths(chain(), 4);
  ASSERT_EQ(paths.size(), 2u);  // optimal (jk,kl first), then the order written
  const std::vector<EinsumComparison> runs{
      compared("jk,kl->jl", "j=10,k=1000,l=10", "cpu.gett", 2e-6, Bound::compute(), 3e-6),
      compared("ij,jl->il", "i=1000,j=10,l=10", "blas.blis", 3e-6, Bound::compute(), 4e-6),
      compared("ij,jk->ik", "i=1000,j=10,k=1000", "cpu.strided", 4e-4, Bound::compute(), 5e-4),
      compared("ik,kl->il", "i=1000,k=1000,l=10", "cpu.ttgt", 6e-4, Bound::compute(), 6e-4)};
  const std::vector<MeasuredPath> m = measure_paths(chain(), paths, runs);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(m[0].complete);
  EXPECT_DOUBLE_EQ(m[0].seconds, 5e-6);
  EXPECT_EQ(m[0].steps[0].best, "cpu.gett");
  EXPECT_EQ(m[0].steps[1].extents, "i=1000,j=10,l=10");
  EXPECT_DOUBLE_EQ(m[1].seconds, 1e-3);
  EXPECT_DOUBLE_EQ(m[1].flops_vs_fewest, 100.0);
  EXPECT_DOUBLE_EQ(m[1].vs_fastest, 200.0);
  EXPECT_DOUBLE_EQ(m[1].framework_seconds, 1.1e-3);
  EXPECT_EQ(paths_verdict(m),
            "the path with the fewest FLOPs (optimal) is the fastest here, within 10%");
  EXPECT_NE(framework_verdict(m).find("(5 µs) is 220.00× a framework's order written"),
            std::string::npos)
      << framework_verdict(m);
}

// Each path's bytes (its steps' operands and results once) and its least time under the
// roofline: each step's FLOPs at the roof a copy-free lowering of it sat under.
TEST(EinsumPaths, EachPathHasItsBytesAndItsTimeAtTheRoof) {
  const std::vector<EinsumPath> paths = einsum_paths(chain(), 4);
  std::vector<EinsumComparison> runs;
  for (const EinsumPath& p : paths)
    for (const EinsumPathStep& step : p.steps) {
      EinsumComparison c = compared(step.equation, step_extents(chain(), step.equation), "cpu.gett",
                                    1e-3, Bound::compute(), 2e-3);
      c.lowerings[0].attainable = 1e11;  // GETT: nothing added, at the step's own intensity
      c.lowerings[1].attainable = 1e9;   // TTGT: its permutes lower its intensity
      c.lowerings[1].added_bytes = 1e6;
      runs.push_back(c);
    }
  const std::vector<MeasuredPath> m = measure_paths(chain(), paths, runs);
  ASSERT_EQ(m.size(), 2u);
  for (std::size_t k = 0; k < m.size(); ++k) {
    EXPECT_DOUBLE_EQ(m[k].bytes, paths[k].bytes);
    EXPECT_DOUBLE_EQ(m[k].roof_seconds, paths[k].flops / 1e11);
  }
  EXPECT_EQ(roof_verdict(m), "");  // the fewest FLOPs are the least time at the roof too
}

// Where the roofline puts another path first than the fewest FLOPs, one line says which,
// why, and whether the measurement agreed.
TEST(EinsumPaths, TheRoofVerdictNamesThePathTheRooflinePrefers) {
  MeasuredPath fewest, other;
  fewest.how = "optimal";
  fewest.flops = 1e6;
  fewest.bytes = 8e6;
  fewest.roof_seconds = 2e-3;
  fewest.seconds = 2.5e-3;
  fewest.complete = true;
  other.how = "left to right";
  other.flops = 2e6;
  other.bytes = 1e6;
  other.roof_seconds = 1e-3;
  other.seconds = 1.25e-3;
  other.complete = true;
  EXPECT_EQ(roof_verdict({fewest, other}),
            "by the roofline the left to right path is the quicker (1 ms against 2 ms for the "
            "optimal path, whose steps move 8× the bytes), and it ran 2.00× faster");
  other.seconds = 5e-3;
  EXPECT_NE(roof_verdict({fewest, other}).find("but it ran 2.00× slower"), std::string::npos);
  other.roof_seconds = 0;  // no ceilings for one step: no prediction to compare
  EXPECT_EQ(roof_verdict({fewest, other}), "");
}

// A bilinear form: optimal, greedy and the order written are one path, shown once, and the
// verdict says so rather than calling it the fastest of one.
// (Its runner-up, A y first, has the same FLOPs: below.)
TEST(EinsumPaths, OnePathToRunIsSaidToBeOne) {
  const EinsumNetwork n = einsum_network("bi,ij,bj->b", "b=8,i=16,j=16");
  const std::vector<EinsumPath> paths = einsum_paths(n, 4, 0);  // without its runner-up
  ASSERT_EQ(paths.size(), 1u);
  std::vector<EinsumComparison> runs;
  for (const EinsumPathStep& step : paths[0].steps)
    runs.push_back(compared(step.equation, step_extents(n, step.equation), "cpu.gett", 1e-6,
                            Bound::compute(), 2e-6));
  EXPECT_EQ(paths_verdict(measure_paths(n, paths, runs)),
            "the order written is the path with the fewest FLOPs (optimal): one path to run");
}

// A runner-up path is shown where its steps ran (`ridgeline einsum` runs them), left out
// where they did not (the suite runs none): the bilinear form's 2nd path (A y first, the
// same FLOPs) with and without its first step's case.
TEST(EinsumPaths, ARunnerUpIsShownWhereItsStepsRan) {
  ridgeline::Run run;
  run.context.provenance.einsum_networks = {{"bi,ij,bj->b", "b=8,i=16,j=16"}};
  const EinsumNetwork n = einsum_network("bi,ij,bj->b", "b=8,i=16,j=16");
  const std::vector<EinsumPath> all = einsum_paths(n, 4);
  ASSERT_EQ(all.size(), 3u);  // the optimum, A y first, the outer product x y first
  EXPECT_EQ(all[1].how, "2nd by FLOPs");
  EXPECT_TRUE(all[1].runner_up);
  std::vector<EinsumComparison> runs;
  for (const EinsumPath& p : all)
    for (const EinsumPathStep& step : p.steps) {
      runs.push_back(compared(step.equation, step_extents(n, step.equation), "cpu.gett", 1e-6,
                              Bound::compute(), 2e-6));
      runs.back().dtype = "f32";
    }
  const EinsumNetworkComparison whole = einsum_network_comparisons(run, runs).at(0);
  ASSERT_EQ(whole.paths.size(), 3u);
  // The order written is the optimal path, listed under that name: the framework's line
  // still sets the fastest against it.
  EXPECT_TRUE(whole.paths[0].as_written);
  EXPECT_NE(whole.framework.find("a framework's order written"), std::string::npos);
  // Without the 2nd path's first step (ij,bj->bi), that path is left out.
  std::vector<EinsumComparison> fewer;
  for (const EinsumComparison& c : runs)
    if (c.equation != all[1].steps[0].equation) fewer.push_back(c);
  const std::vector<EinsumNetworkComparison> shown = einsum_network_comparisons(run, fewer);
  ASSERT_EQ(shown.at(0).paths.size(), 2u);
  EXPECT_EQ(shown.at(0).paths[0].how, "optimal");
  EXPECT_EQ(shown.at(0).paths[1].how, "3rd by FLOPs");
}

TEST(EinsumPaths, AFewestFlopPathThatLosesNamesItsSlowStepAndItsBound) {
  const std::vector<EinsumPath> paths = einsum_paths(chain(), 4);
  const std::vector<EinsumComparison> runs{
      compared("jk,kl->jl", "j=10,k=1000,l=10", "cpu.gett", 2e-3, Bound::memory("DRAM"), 3e-3),
      compared("ij,jl->il", "i=1000,j=10,l=10", "blas.blis", 3e-6, Bound::compute(), 4e-6),
      compared("ij,jk->ik", "i=1000,j=10,k=1000", "cpu.strided", 4e-4, Bound::compute(), 5e-4),
      compared("ik,kl->il", "i=1000,k=1000,l=10", "cpu.ttgt", 6e-4, Bound::compute(), 6e-4)};
  const std::string verdict = paths_verdict(measure_paths(chain(), paths, runs));
  EXPECT_NE(verdict.find("the optimal path ran 2.00× the left to right path's time despite"),
            std::string::npos)
      << verdict;
  EXPECT_NE(verdict.find("its step jk,kl->jl took 2 ms"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("DRAM-bound"), std::string::npos) << verdict;
}

TEST(EinsumPaths, AStepThatDidNotRunLeavesItsPathIncomplete) {
  const std::vector<EinsumPath> paths = einsum_paths(chain(), 4);
  const std::vector<EinsumComparison> runs{
      compared("jk,kl->jl", "j=10,k=1000,l=10", "cpu.gett", 2e-6, Bound::compute(), 3e-6)};
  const std::vector<MeasuredPath> m = measure_paths(chain(), paths, runs);
  EXPECT_FALSE(m[0].complete);
  EXPECT_EQ(m[0].seconds, 0.0);
  EXPECT_TRUE(m[0].steps[1].best.empty());
  EXPECT_EQ(paths_verdict(m), "the optimal path did not run every step");
  EXPECT_EQ(framework_verdict(m), "");
}

}  // namespace ridgeline

namespace ridgeline {

// The networks a Run records are measured once per dtype and thread count their steps ran
// at, from that configuration's comparisons only; a recorded network that is not one is a
// line, not an exception.
TEST(EinsumPaths, EachRecordedNetworkIsMeasuredPerDtypeAndThreadCount) {
  const auto at = [](EinsumComparison c, const char* dtype, int threads) {
    c.dtype = dtype;
    c.threads = threads;
    return c;
  };
  std::vector<EinsumComparison> runs;
  for (auto [dtype, threads, scale] : {std::tuple{"f32", 1, 1.0}, std::tuple{"f64", 2, 2.0}}) {
    runs.push_back(at(
        compared("jk,kl->jl", "j=10,k=1000,l=10", "cpu.gett", 2e-6 * scale, Bound::compute(), 3e-6),
        dtype, threads));
    runs.push_back(at(compared("ij,jl->il", "i=1000,j=10,l=10", "blas.blis", 3e-6 * scale,
                               Bound::compute(), 4e-6),
                      dtype, threads));
  }
  // Another contraction of the run, not a step of the network.
  runs.push_back(
      at(compared("ij,jk->ik", "i=512,j=512,k=512", "cpu.strided", 1e-3, Bound::compute(), 1e-3),
         "f32", 2));
  ridgeline::Run run;
  run.context.provenance.einsum_networks = {{"ij,jk,kl->il", "i=1000,j=10,k=1000,l=10"},
                                            {"ij,jk", "i=2,j=3,k=4"}};
  const std::vector<EinsumNetworkComparison> n = einsum_network_comparisons(run, runs);
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[0].dtype, "f32");
  EXPECT_EQ(n[0].threads, 1);
  EXPECT_DOUBLE_EQ(n[0].paths.front().seconds, 5e-6);
  EXPECT_FALSE(n[0].paths.back().complete);  // the order written did not run here
  EXPECT_EQ(n[1].dtype, "f64");
  EXPECT_EQ(n[1].threads, 2);
  EXPECT_DOUBLE_EQ(n[1].paths.front().seconds, 1e-5);
  EXPECT_EQ(n[1].verdict, paths_verdict(n[1].paths));
  EXPECT_TRUE(n[2].paths.empty());
  EXPECT_NE(n[2].error.find("the Run's einsum network 'ij,jk' (i=2,j=3,k=4): give the output"),
            std::string::npos)
      << n[2].error;
}

}  // namespace ridgeline
