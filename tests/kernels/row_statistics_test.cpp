// The GPU's row statistics combined as a block combines them (kernels/src/cuda/
// row_statistics.hpp): any split of a row into parts, empty ones included, in the order of
// a warp's butterfly, gives the statistics of the whole row.
#include "cuda/rowwise/row_statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace ridgeline::rows {
namespace {

// The row cut into `parts` pieces of random length (some empty), each piece's statistics by
// `of`, combined pairwise as shuffles do (part i with part i ^ offset, offsets halving).
template <typename S, typename Of>
S combined_in_a_butterfly(const std::vector<float>& row, int parts, std::mt19937& rng, Of of) {
  std::vector<std::size_t> cuts = {0, row.size()};
  std::uniform_int_distribution<std::size_t> at(0, row.size());
  for (int i = 1; i < parts; ++i) cuts.push_back(at(rng));
  std::sort(cuts.begin(), cuts.end());
  std::vector<S> s;
  for (int i = 0; i < parts; ++i)
    s.push_back(of(std::vector<float>(row.begin() + cuts[i], row.begin() + cuts[i + 1])));
  for (int offset = parts / 2; offset > 0; offset /= 2) {
    std::vector<S> next = s;
    for (int i = 0; i < parts; ++i) next[i] = combine(s[i], s[i ^ offset]);
    s = next;
  }
  return s[0];
}

// A part's statistics as a thread takes them from its registers (fmax skips NaN; a part of
// -inf only is shifted by 0, its exps 0).
MaxSum max_sum(const std::vector<float>& part) {
  MaxSum r = MaxSum::empty();
  for (float x : part) r.m = std::fmax(r.m, x);
  const float shift = r.m == -INFINITY ? 0.0f : r.m;
  for (float x : part) r.s += std::exp(x - shift);
  return r;
}

MeanM2 mean_m2(const std::vector<float>& part) {
  if (part.empty()) return MeanM2::empty();
  double sum = 0, m2 = 0;
  for (float x : part) sum += x;
  const double mean = sum / part.size();
  for (float x : part) m2 += (x - mean) * (x - mean);
  return {static_cast<float>(part.size()), static_cast<float>(mean), static_cast<float>(m2)};
}

TEST(RowStatistics, SoftmaxsMaxAndSumCombineToTheWholeRowsInAnySplit) {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 4.0f);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<float> row(1 + trial * 13 % 700);
    for (float& x : row) x = normal(rng) + (trial % 3 == 0 ? 60.0f : 0.0f);
    if (trial % 5 == 0) row[trial % row.size()] = -INFINITY;  // a masked element
    const MaxSum whole = max_sum(row);
    const MaxSum got = combined_in_a_butterfly<MaxSum>(row, 32, rng, max_sum);
    EXPECT_EQ(got.m, whole.m);
    EXPECT_NEAR(got.s, whole.s, 1e-5 * whole.s) << "trial " << trial;
  }
  // A NaN element makes the row's sum NaN, wherever the part holding it lands: even where
  // it is the part's only element (fmax skips NaN: that part's max is -inf).
  std::vector<float> with_nan(37, 1.0f);
  with_nan[5] = NAN;
  for (int trial = 0; trial < 20; ++trial)
    EXPECT_TRUE(std::isnan(combined_in_a_butterfly<MaxSum>(with_nan, 32, rng, max_sum).s));
  EXPECT_TRUE(std::isnan(combine(MaxSum{1.0f, 1.0f}, MaxSum{-INFINITY, NAN}).s));
  // Only padding and -inf: the empty part, with no NaN.
  const MaxSum none = combine(MaxSum::empty(), MaxSum{-INFINITY, 0.0f});
  EXPECT_EQ(none.m, -INFINITY);
  EXPECT_EQ(none.s, 0.0f);
}

TEST(RowStatistics, LayernormsMeanAndM2CombineToTheWholeRowsInAnySplit) {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<float> row(1 + trial * 17 % 900);
    // An offset far above the spread: the case that loses digits in sum-of-squares formulas.
    const float offset = trial % 2 ? 1000.0f : 0.0f;
    for (float& x : row) x = offset + normal(rng);
    const MeanM2 whole = mean_m2(row);
    const MeanM2 got = combined_in_a_butterfly<MeanM2>(row, 32, rng, mean_m2);
    EXPECT_EQ(got.n, whole.n);
    EXPECT_NEAR(got.mean, whole.mean, 1e-6 * std::max(1.0f, std::fabs(whole.mean)));
    EXPECT_NEAR(got.m2 / got.n, whole.m2 / whole.n, 2e-4 * whole.m2 / whole.n + 1e-6)
        << "trial " << trial;
  }
  const MeanM2 none = combine(MeanM2::empty(), MeanM2::empty());
  EXPECT_EQ(none.n, 0.0f);
  EXPECT_EQ(none.m2, 0.0f);
}

}  // namespace
}  // namespace ridgeline::rows
