// Contraction paths of einsum networks (core/ops/einsum_path.hpp): the order decides the
// FLOPs; the exhaustive search against an independent brute force (the cheapest binary tree
// over subsets of operands) on random small networks.
#include "ridgeline/core/ops/einsum_path.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>

namespace ridgeline {

namespace {

// The cheapest contraction tree's FLOPs: cost(S) = min over splits of S into T and S \ T of
// cost(T) + cost(S \ T) + 2 x the points of the union of their results' indices.
double brute_force(const EinsumNetwork& n) {
  const std::size_t count = n.inputs.size();
  const auto indices_of = [&](unsigned mask) {  // the result of contracting the operands in mask
    if ((mask & (mask - 1)) == 0)               // one operand: as written, nothing summed yet
      for (std::size_t k = 0; k < count; ++k)
        if (mask == (1u << k)) return n.inputs[k];
    std::string all, kept;
    for (std::size_t k = 0; k < count; ++k)
      if (mask & (1u << k)) all += n.inputs[k];
    for (char ch : all) {
      if (kept.find(ch) != std::string::npos) continue;
      bool needed = n.output.find(ch) != std::string::npos;
      for (std::size_t k = 0; k < count && !needed; ++k)
        needed = !(mask & (1u << k)) && n.inputs[k].find(ch) != std::string::npos;
      if (needed) kept += ch;
    }
    return kept;
  };
  std::function<double(unsigned)> cost = [&](unsigned s) -> double {
    if ((s & (s - 1)) == 0) return 0;  // one operand
    double best = std::numeric_limits<double>::infinity();
    for (unsigned t = (s - 1) & s; t > 0; t = (t - 1) & s) {
      const unsigned u = s & ~t;
      if (t < u) continue;  // each split once
      std::string points = indices_of(t);
      for (char ch : indices_of(u))
        if (points.find(ch) == std::string::npos) points += ch;
      double e = 2;
      for (char ch : points) e *= static_cast<double>(n.extents.at(ch));
      best = std::min(best, cost(t) + cost(u) + e);
    }
    return best;
  };
  return cost((1u << count) - 1);
}

}  // namespace

TEST(EinsumPath, AMatrixChainInTheWrittenOrderCostsAHundredTimesTheBest) {
  // A (1000 x 10) B (10 x 1000) C (1000 x 10): (A B) C makes a 1000 x 1000 intermediate.
  const EinsumNetwork n = einsum_network("ij,jk,kl->il", "i=1000,j=10,k=1000,l=10");
  const EinsumPath written = einsum_path_left_to_right(n, 4);
  const EinsumPath best = einsum_path_optimal(n, 4);
  EXPECT_DOUBLE_EQ(written.flops, 2.0 * 1000 * 10 * 1000 + 2.0 * 1000 * 1000 * 10);
  EXPECT_DOUBLE_EQ(best.flops, 2.0 * 10 * 1000 * 10 + 2.0 * 1000 * 10 * 10);
  ASSERT_EQ(best.steps.size(), 2u);
  EXPECT_EQ(best.steps[0].equation, "jk,kl->jl");
  EXPECT_EQ(best.steps[1].equation, "ij,jl->il");  // the last step writes the output's order
  EXPECT_EQ(written.steps[0].equation, "ij,jk->ik");
  EXPECT_EQ(written.steps[1].equation, "ik,kl->il");
  // Bytes: each step's operands and result once, 4 bytes an element.
  EXPECT_DOUBLE_EQ(best.steps[0].bytes, 4.0 * (10 * 1000 + 1000 * 10 + 10 * 10));
  const std::vector<EinsumPath> shown = einsum_paths(n, 4);
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[0].how, "optimal");
  EXPECT_EQ(shown[1].how, "left to right");
  EXPECT_LE(einsum_path_greedy(n, 4).flops, written.flops);
}

TEST(EinsumPath, TheSearchFindsTheBruteForceOptimumOnRandomNetworks) {
  std::mt19937 rng(7);
  const std::string letters = "abcdefgh";
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t operands = 3 + rng() % 3;  // 3 to 5
    EinsumNetwork n;
    for (char ch : letters) n.extents[ch] = 2 + static_cast<std::int64_t>(rng() % 8);
    std::string used;
    for (std::size_t k = 0; k < operands; ++k) {
      std::string term;
      for (char ch : letters)
        if (rng() % 3 == 0) term += ch;
      if (term.empty()) term = std::string(1, letters[rng() % letters.size()]);
      n.inputs.push_back(term);
      used += term;
    }
    for (char ch : letters)
      if (used.find(ch) != std::string::npos && n.output.find(ch) == std::string::npos &&
          rng() % 3 == 0)
        n.output += ch;
    const EinsumPath best = einsum_path_optimal(n, 4);
    EXPECT_DOUBLE_EQ(best.flops, brute_force(n)) << "trial " << trial;
    EXPECT_EQ(best.steps.size(), operands - 1);
    EXPECT_LE(best.flops, einsum_path_left_to_right(n, 4).flops);
    EXPECT_LE(best.flops, einsum_path_greedy(n, 4).flops);
  }
}

// The next cheapest paths: each another set of steps, cheapest first, none cheaper than
// the optimum; shown beside it where they cost at most 10x its FLOPs.
TEST(EinsumPath, TheRunnersUpAreTheNextCheapestOtherPaths) {
  const EinsumNetwork bilinear = einsum_network("bi,ij,bj->b", "b=8,i=16,j=16");
  const std::vector<EinsumPath> cheapest = einsum_paths_cheapest(bilinear, 4, 3);
  ASSERT_EQ(cheapest.size(), 3u);  // x A first, A y first, the outer product x y first
  EXPECT_EQ(cheapest[0].how, "optimal");
  EXPECT_DOUBLE_EQ(cheapest[0].flops, einsum_path_optimal(bilinear, 4).flops);
  EXPECT_DOUBLE_EQ(cheapest[1].flops, cheapest[0].flops);  // the same FLOPs, other steps
  EXPECT_NE(cheapest[1].steps[0].equation, cheapest[0].steps[0].equation);
  EXPECT_EQ(cheapest[2].steps[0].equation, "bi,bj->bij");
  EXPECT_DOUBLE_EQ(cheapest[2].flops, 2 * (2.0 * 8 * 16 * 16));  // two steps of b x i x j
  for (std::size_t k = 1; k < cheapest.size(); ++k) EXPECT_TRUE(cheapest[k].runner_up);
  EXPECT_EQ(einsum_paths(bilinear, 4).size(), 3u);  // all within 10x
  EXPECT_EQ(einsum_paths(bilinear, 4, 0).size(), 1u);
  // The chain: the runners-up cost 100x and 500x the optimum: not shown.
  const EinsumNetwork chain = einsum_network("ij,jk,kl->il", "i=1000,j=10,k=1000,l=10");
  EXPECT_EQ(einsum_paths(chain, 4).size(), 2u);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    EinsumNetwork n;
    const std::string letters = "abcdef";
    for (char ch : letters) n.extents[ch] = 2 + static_cast<std::int64_t>(rng() % 6);
    for (int k = 0; k < 4; ++k) {
      std::string term;
      for (char ch : letters)
        if (rng() % 3 == 0) term += ch;
      n.inputs.push_back(term.empty() ? std::string(1, letters[rng() % 6]) : term);
    }
    const std::vector<EinsumPath> best = einsum_paths_cheapest(n, 4, 3);
    EXPECT_DOUBLE_EQ(best.front().flops, brute_force(n)) << "trial " << trial;
    for (std::size_t k = 1; k < best.size(); ++k) EXPECT_GE(best[k].flops, best[k - 1].flops);
  }
}

// One contraction is one step equation whatever order a path reaches it in (the operand of
// the lower inputs first), so one path is listed once: two independent products then their
// product, found in either order; and the order written when it is the optimum.
TEST(EinsumPath, APathFoundInTwoOrdersOrAlsoWrittenIsListedOnce) {
  const auto equations = [](const EinsumPath& p) {
    std::vector<std::string> e;
    for (const EinsumPathStep& st : p.steps) e.push_back(st.equation);
    std::sort(e.begin(), e.end());
    return e;
  };
  const EinsumNetwork four = einsum_network("ij,jk,kl,lm->im", "i=10,j=100,k=10,l=100,m=10");
  const std::vector<EinsumPath> cheapest = einsum_paths_cheapest(four, 4, 3);
  ASSERT_EQ(cheapest.size(), 3u);
  EXPECT_EQ(equations(cheapest[0]),
            (std::vector<std::string>{"ij,jk->ik", "ik,km->im", "kl,lm->km"}));
  for (std::size_t a = 0; a < cheapest.size(); ++a)
    for (std::size_t b = a + 1; b < cheapest.size(); ++b)
      EXPECT_NE(equations(cheapest[a]), equations(cheapest[b])) << a << " " << b;
  // Here the order written is the optimum: one row, marked as written.
  const EinsumNetwork chain = einsum_network("ij,jk,kl->il", "i=10,j=1000,k=10,l=1000");
  const std::vector<EinsumPath> shown = einsum_paths(chain, 4, 0);
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].how, "optimal");
  EXPECT_TRUE(shown[0].as_written);
  EXPECT_EQ(shown[0].steps[1].equation, "ik,kl->il");
}

TEST(EinsumPath, BeyondSixOperandsTheGreedyPathIsShown) {
  const EinsumNetwork n =
      einsum_network("ab,bc,cd,de,ef,fg,gh->ah", "a=4,b=5,c=6,d=7,e=8,f=9,g=3,h=2");
  EXPECT_THROW(einsum_path_optimal(n, 4), std::invalid_argument);
  const std::vector<EinsumPath> shown = einsum_paths(n, 4);
  EXPECT_EQ(shown.front().how, "greedy");
  EXPECT_EQ(shown.front().steps.size(), 6u);
}

// The greedy path as opt_einsum takes it: a chain of seven matrices with small and large
// extents, where "the cheapest pair first" multiplied two unrelated matrices (an outer
// product, gh,ce->ghce) and ended 1.5x the best; opt_einsum's choice finds the best.
TEST(EinsumPath, TheGreedyPathTakesNoOuterProductWhileAPairSharesAnIndex) {
  const EinsumNetwork chain =
      einsum_network("ab,bc,cd,de,ef,fg,gh->ah", "a=4,b=50,c=3,d=60,e=2,f=70,g=5,h=6");
  const EinsumPath greedy = einsum_path_greedy(chain, 4);
  EXPECT_DOUBLE_EQ(greedy.flops, brute_force(chain));
  EXPECT_DOUBLE_EQ(greedy.flops, 3584);  // the matrix-chain order's, by hand
  std::mt19937 rng(11);
  const std::string letters = "abcdefgh";
  for (int trial = 0; trial < 200; ++trial) {
    EinsumNetwork n;
    for (char ch : letters) n.extents[ch] = 1 + static_cast<std::int64_t>(rng() % 9);
    for (std::size_t k = 0; k < 3 + rng() % 5; ++k) {  // 3 to 7 operands
      std::string term;
      for (char ch : letters)
        if (rng() % 4 == 0) term += ch;
      n.inputs.push_back(term.empty() ? std::string(1, letters[rng() % 8]) : term);
    }
    // Replay the path: at each step, if any two operands share an index, so do the two
    // the path contracts.
    std::vector<std::string> operands = n.inputs;
    for (const EinsumPathStep& step : einsum_path_greedy(n, 4).steps) {
      const auto shares = [](const std::string& a, const std::string& b) {
        return a.find_first_of(b) != std::string::npos;
      };
      bool any = false;
      for (std::size_t i = 0; i < operands.size(); ++i)
        for (std::size_t j = i + 1; j < operands.size(); ++j)
          any = any || shares(operands[i], operands[j]);
      EXPECT_TRUE(!any || shares(operands[step.left], operands[step.right]))
          << "trial " << trial << ": " << step.equation;
      const std::string result = step.equation.substr(step.equation.find("->") + 2);
      operands.erase(operands.begin() +
                     static_cast<std::ptrdiff_t>(std::max(step.left, step.right)));
      operands.erase(operands.begin() +
                     static_cast<std::ptrdiff_t>(std::min(step.left, step.right)));
      operands.push_back(result);
    }
  }
}

TEST(EinsumPath, EachBadNetworkIsOneLineNamingIt) {
  EXPECT_EQ(einsum_network_error("ij,jk,kl->il"), "");
  EXPECT_NE(einsum_network_error("ij->ij").find("one operand"), std::string::npos);
  EXPECT_NE(einsum_network_error("ij,jk,kl->iz").find("output index 'z' is in no operand"),
            std::string::npos);
  EXPECT_NE(einsum_network_error("ij,jj,kl->il").find("appears twice in operand 2"),
            std::string::npos);
  EXPECT_NE(einsum_network_error("ij,jk,kl").find("give the output explicitly"), std::string::npos);
  EXPECT_THROW(einsum_network("ij,jk,kl->il", "i=2,j=3,k=4"), std::invalid_argument);
  try {
    einsum_network("ij,jk,kl->il", "i=2,j=3,k=4,l=5,z=3");
    ADD_FAILURE() << "an extent no operand names was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "index 'z' is given an extent but is not in the equation");
  }
}

}  // namespace ridgeline
