// The packed GEMM's panel packing (cpu/panel_packing.hpp): the portable routine against the
// layout written out by hand, and the AVX-512 packings (bf16, f32, f64) bit for bit against it
// over awkward sizes: odd kc (a zero step pads bf16's last pair), lanes short of the panel
// width (the mr and nr tails), kc past one block of the transposes, a source offset into a
// longer k (a later kc block), both stride orders (row-major and transposed operands).
#include "cpu/panel_packing.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cpu/microkernel.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

using Bits = std::uint16_t;

Bits random_value(Bits, std::mt19937& rng) {
  return static_cast<Bits>(rng());
}
std::int8_t random_value(std::int8_t, std::mt19937& rng) {
  return static_cast<std::int8_t>(rng());
}
template <typename T>
T random_value(T, std::mt19937& rng) {
  return static_cast<T>(static_cast<int>(rng() % 200001) - 100000) / T(7);
}

// A source of `lanes` lanes of `k` steps with leading dimension ld (> the contiguous extent),
// random values (bits for bf16), and the strides of one of the two orders.
template <typename T = Bits>
struct Source {
  std::vector<T> data;
  std::int64_t lane_stride, k_stride;
  Source(std::int64_t lanes, std::int64_t k, bool steps_contiguous, std::mt19937& rng) {
    const std::int64_t ld = (steps_contiguous ? k : lanes) + 3;
    data.resize(static_cast<std::size_t>(ld * (steps_contiguous ? lanes : k)));
    for (T& x : data) x = random_value(T{}, rng);
    lane_stride = steps_contiguous ? ld : 1;
    k_stride = steps_contiguous ? 1 : ld;
  }
  T at(std::int64_t l, std::int64_t p) const {
    return data[static_cast<std::size_t>(l * lane_stride + p * k_stride)];
  }
};

// What panel_packing.hpp says the panel holds, entry by entry.
std::vector<Bits> by_hand(const Source<>& s, std::int64_t p0, std::int64_t lanes, std::int64_t kc,
                          int width) {
  const std::int64_t pairs = (kc + 1) / 2;
  std::vector<Bits> out(static_cast<std::size_t>(pairs * width * 2), 0);
  for (std::int64_t l = 0; l < lanes; ++l)
    for (std::int64_t p = 0; p < kc; ++p)
      out[static_cast<std::size_t>(p / 2 * width * 2 + l * 2 + p % 2)] = s.at(l, p0 + p);
  return out;
}

// The same for groups of K steps of any element (int8's quads).
template <typename T, int K>
std::vector<T> grouped_by_hand(const Source<T>& s, std::int64_t p0, std::int64_t lanes,
                               std::int64_t kc, int width) {
  const std::int64_t groups = (kc + K - 1) / K;
  std::vector<T> out(static_cast<std::size_t>(groups * width * K), T(0));
  for (std::int64_t l = 0; l < lanes; ++l)
    for (std::int64_t p = 0; p < kc; ++p)
      out[static_cast<std::size_t>(p / K * width * K + l * K + p % K)] = s.at(l, p0 + p);
  return out;
}

}  // namespace

TEST(PackedPanel, Int8PackingHasTheVnniLayoutAndAvx512MatchesItBitForBit) {
  using I8 = std::int8_t;
  std::mt19937 rng(21);
  const bool avx512 = cpu_features().has_avx512();
  int cases = 0;
  for (bool steps_contiguous : {true, false})
    for (int width : {16, 32})
      for (std::int64_t lanes : {1, 5, 16, 17, 31, 32})
        for (std::int64_t kc : {1, 3, 4, 5, 63, 64, 65, 100, 1024})
          for (std::int64_t p0 : {0, 1024}) {
            if (lanes > width) continue;
            const Source<I8> s(lanes, p0 + kc, steps_contiguous, rng);
            const std::vector<I8> want = grouped_by_hand<I8, 4>(s, p0, lanes, kc, width);
            std::vector<I8> scalar(want.size(), I8(0x55)), vector(want.size(), I8(0x2A));
            const I8* src = s.data.data() + p0 * s.k_stride;
            packed::pack_panel(src, s.lane_stride, s.k_stride, lanes, kc, width, scalar.data());
            ASSERT_EQ(scalar, want) << "width " << width << " lanes " << lanes << " kc " << kc;
            if (!avx512) continue;
            packed::pack_panel_i8_avx512(src, s.lane_stride, s.k_stride, lanes, kc, width,
                                         vector.data());
            ASSERT_EQ(vector, want)
                << "width " << width << " lanes " << lanes << " kc " << kc << " from step " << p0
                << (steps_contiguous ? " steps contiguous" : " lanes contiguous");
            ++cases;
          }
  if (avx512) {
    EXPECT_GT(cases, 150);
  }
}

TEST(PackedPanel, PortableBf16PackingHasTheDocumentedLayout) {
  std::mt19937 rng(11);
  for (bool steps_contiguous : {true, false})
    for (int width : {14, 32})
      for (std::int64_t lanes : {1, 13, 14, 32})
        for (std::int64_t kc : {1, 2, 7, 33}) {
          if (lanes > width) continue;
          const Source<> s(lanes, kc + 5, steps_contiguous, rng);
          const std::vector<Bits> want = by_hand(s, 5, lanes, kc, width);
          std::vector<Bits> got(want.size(), 0xAAAA);  // garbage the padding must replace
          packed::pack_panel(s.data.data() + 5 * s.k_stride, s.lane_stride, s.k_stride, lanes, kc,
                             width, got.data());
          EXPECT_EQ(got, want) << "width " << width << " lanes " << lanes << " kc " << kc
                               << (steps_contiguous ? " steps contiguous" : " lanes contiguous");
        }
}

TEST(PackedPanel, Bf16Avx512PackingMatchesThePortableBitForBit) {
  if (!cpu_features().has_avx512())
    GTEST_SKIP() << "the bf16 packing needs AVX-512 (F, BW, VL), which this CPU lacks";
  std::mt19937 rng(12);
  int cases = 0;
  for (bool steps_contiguous : {true, false})
    for (int width : {14, 32})
      for (std::int64_t lanes : {1, 5, 13, 14, 16, 17, 31, 32})
        for (std::int64_t kc : {1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 1023, 1024})
          for (std::int64_t p0 : {0, 1024}) {  // the first kc block, or a later one
            if (lanes > width) continue;
            const Source<> s(lanes, p0 + kc, steps_contiguous, rng);
            const Bits* src = s.data.data() + p0 * s.k_stride;
            const std::size_t size = static_cast<std::size_t>((kc + 1) / 2 * width * 2);
            std::vector<Bits> scalar(size, 0xAAAA), vector(size, 0x5555);
            packed::pack_panel(src, s.lane_stride, s.k_stride, lanes, kc, width, scalar.data());
            packed::pack_panel_bf16_avx512(src, s.lane_stride, s.k_stride, lanes, kc, width,
                                           vector.data());
            ASSERT_EQ(vector, scalar)
                << "width " << width << " lanes " << lanes << " kc " << kc << " from step " << p0
                << (steps_contiguous ? " steps contiguous" : " lanes contiguous");
            ++cases;
          }
  EXPECT_GT(cases, 300);
}

template <typename T>
int expect_avx512_packing_matches_the_portable() {
  std::mt19937 rng(13);
  int cases = 0;
  for (bool steps_contiguous : {true, false})
    for (int width : {6, 8, 14, 16, 32, 64})  // the micro-kernels' A and B widths among them
      for (std::int64_t lanes : {1, 5, 6, 8, 13, 14, 16, 17, 31, 32, 63, 64})
        for (std::int64_t kc : {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 1023, 1024})
          for (std::int64_t p0 : {0, 1024}) {
            if (lanes > width) continue;
            const Source<T> s(lanes, p0 + kc, steps_contiguous, rng);
            const T* src = s.data.data() + p0 * s.k_stride;
            const std::size_t size = static_cast<std::size_t>(kc * width);
            std::vector<T> scalar(size, T(-1)), vector(size, T(-2));
            packed::pack_panel(src, s.lane_stride, s.k_stride, lanes, kc, width, scalar.data());
            packed::pack_panel_avx512(src, s.lane_stride, s.k_stride, lanes, kc, width,
                                      vector.data());
            EXPECT_EQ(vector, scalar)
                << "width " << width << " lanes " << lanes << " kc " << kc << " from step " << p0
                << (steps_contiguous ? " steps contiguous" : " lanes contiguous");
            if (vector != scalar) return cases;
            ++cases;
          }
  return cases;
}

TEST(PackedPanel, F32AndF64Avx512PackingMatchesThePortable) {
  if (!cpu_features().has_avx512())
    GTEST_SKIP() << "the f32/f64 packing needs AVX-512 (F, DQ, BW, VL), which this CPU lacks";
  EXPECT_GT(expect_avx512_packing_matches_the_portable<float>(), 500);
  EXPECT_GT(expect_avx512_packing_matches_the_portable<double>(), 500);
}

TEST(PackedPanel, TheAvx512MicroKernelsPackWithAvx512) {
  EXPECT_EQ(packed::microkernel_bf16_avx512().pack, &packed::pack_panel_bf16_avx512);
  EXPECT_EQ(packed::microkernel_f32_avx512().pack, &packed::pack_panel_avx512<float>);
  EXPECT_EQ(packed::microkernel_f64_avx512().pack, &packed::pack_panel_avx512<double>);
  EXPECT_EQ(packed::microkernel_f64_avx2().pack, &packed::pack_panel<double>);
}

}  // namespace ridgeline
