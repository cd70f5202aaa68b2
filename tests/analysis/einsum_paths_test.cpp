// A network's paths measured (analysis/einsum_paths.hpp): each path's time is the sum of its
// steps' fastest lowerings, set beside its predicted FLOPs; the verdict says whether the
// fewest-FLOP path was the fastest, or which of its steps lost it, and what a framework's
// order with TTGT at each step cost. Comparisons are written here as a Run would give them.
#include "ridgeline/analysis/einsum_paths.hpp"

#include <gtest/gtest.h>

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
