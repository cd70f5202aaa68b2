// The TTGT permute (kernels/src/einsum/einsum_permute.hpp) against an element-by-element
// copy: every order of up to four indices, extents of 1, primes and more than one register
// block, each instruction set this CPU has, with and without streaming stores, outputs that
// are not aligned, one thread and two.
#include "einsum/einsum_permute.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "einsum/einsum_strides.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

std::vector<PermuteOptions> options_here() {
  std::vector<PermuteOptions> all{{false, false}, {false, true}};
  if (cpu_features().has_avx512()) {
    all.push_back({true, false});
    all.push_back({true, true});
  }
  return all;
}

// Every permutation of `from`, each checked element by element; the output starts on a line
// (as the runner's operands and TTGT's buffers do), then `shift` elements further, so that
// lines and vectors do not start there.
template <typename T>
void check_every_order(const std::string& from, const std::map<char, std::int64_t>& extents,
                       std::int64_t shift) {
  EinsumSpec s;
  s.a = s.c = from;
  s.extents = extents;
  const std::int64_t n = s.elements(from);
  std::vector<T> in(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<T>(i);
  std::string to = from;
  std::sort(to.begin(), to.end());
  do {
    // Where each output element comes from: its index values walked by the input's strides.
    std::vector<T> want(static_cast<std::size_t>(n));
    for (std::int64_t o = 0; o < n; ++o) {
      std::int64_t rest = o, at = 0;
      for (std::size_t d = to.size(); d-- > 0;) {
        const std::int64_t e = extents.at(to[d]);
        at += rest % e * stride_of(from, to[d], s);
        rest /= e;
      }
      want[static_cast<std::size_t>(o)] = in[static_cast<std::size_t>(at)];
    }
    for (const PermuteOptions& opt : options_here())
      for (int threads : {1, 2}) {
        constexpr std::int64_t line = 64 / sizeof(T);
        std::vector<T> out(static_cast<std::size_t>(n + shift + line), T(-1));
        const std::int64_t pad = static_cast<std::int64_t>(
            (64 - reinterpret_cast<std::uintptr_t>(out.data()) % 64) % 64 / sizeof(T));
        T* const begin = out.data() + pad + shift;
        einsum_permute(s, from, in.data(), to, begin, threads, opt);
        const std::vector<T> got(begin, begin + n);
        ASSERT_EQ(got, want) << from << " -> " << to << (opt.avx512 ? " avx512" : " avx2")
                             << (opt.stream ? " streamed" : "") << ", " << threads
                             << " threads, output shifted by " << shift;
      }
  } while (std::next_permutation(to.begin(), to.end()));
}

}  // namespace

TEST(EinsumPermute, EveryOrderOfFourIndicesMatchesTheElementwiseCopy) {
  const std::map<char, std::int64_t> extents{{'a', 3}, {'b', 17}, {'c', 33}, {'d', 16}};
  for (std::int64_t shift : {0, 1}) {
    check_every_order<float>("abcd", extents, shift);
    check_every_order<double>("abcd", extents, shift);
  }
}

TEST(EinsumPermute, ExtentsOfOneAndSmallerThanABlock) {
  check_every_order<float>("abc", {{'a', 1}, {'b', 5}, {'c', 7}}, 0);
  check_every_order<double>("abc", {{'a', 2}, {'b', 1}, {'c', 3}}, 3);
  check_every_order<float>("a", {{'a', 37}}, 1);
}

// Whole blocks only (16 x 16 f32, 8 x 8 f64, every line aligned): the streamed path without
// edges, at strides that are multiples of 1 KiB.
TEST(EinsumPermute, PowerOfTwoExtentsStreamWholeLines) {
  check_every_order<float>("ij", {{'i', 64}, {'j', 256}}, 0);
  check_every_order<double>("bij", {{'b', 2}, {'i', 128}, {'j', 32}}, 0);
  check_every_order<float>("bthr", {{'b', 2}, {'t', 32}, {'h', 4}, {'r', 16}}, 0);
}

// Whole AVX2 tiles (32 x 32 f32, 16 x 16 f64) with edges on both sides: staged and, where
// streamed, stored as whole lines.
TEST(EinsumPermute, WholeTilesWithEdgesMatchTheElementwiseCopy) {
  for (std::int64_t shift : {0, 3}) {
    check_every_order<float>("ij", {{'i', 70}, {'j', 45}}, shift);
    check_every_order<double>("ij", {{'i', 37}, {'j', 20}}, shift);
    check_every_order<float>("bij", {{'b', 2}, {'i', 32}, {'j', 64}}, shift);
  }
}

// Runs of 16 and 32 bytes (4 and 8 f32, 2 and 4 f64) whose neighbouring indices change
// places: transposed as elements in blocks of lanes, with edges in both directions.
TEST(EinsumPermute, RunsOfHalfALineOrLessMatchTheElementwiseCopy) {
  for (std::int64_t run : {4, 8}) {
    check_every_order<float>("abcd", {{'a', 3}, {'b', 9}, {'c', 6}, {'d', run}}, 0);
    check_every_order<double>("abcd", {{'a', 2}, {'b', 5}, {'c', 11}, {'d', run / 2}}, 1);
  }
  check_every_order<float>("ijk", {{'i', 12}, {'j', 8}, {'k', 8}}, 0);
}

TEST(EinsumPermute, StreamingOnlyPastTheLastLevelCache) {
  EXPECT_FALSE(permute_options(cache_sizes().l3).stream);
#if !defined(__x86_64__)
  // AArch64's blocks store through the cache alone (permute_blocks_neon.cpp).
  EXPECT_FALSE(permute_options(std::int64_t{1} << 40).stream);
  GTEST_SKIP() << "no streaming stores on AArch64";
#endif
  EXPECT_TRUE(permute_options(cache_sizes().l3 + 1).stream);
  EXPECT_TRUE(permute_options(std::int64_t{1} << 40).stream);
  EXPECT_EQ(permute_options(1).avx512, cpu_features().has_avx512());
}

}  // namespace ridgeline
