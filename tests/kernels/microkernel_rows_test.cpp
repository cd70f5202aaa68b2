// The micro-kernels' `rows` variant (cpu/microkernel.hpp): for every row count short of MR, the
// rows it computes equal the full kernel's bit for bit (the same FMAs in the same order), with
// and without accumulation, over a kc past the kernel's C-prefetch split; the rows past them
// and the columns past NR are left as they were. The full kernel runs without the next-panel
// hint and the rows with one, so a hint that changed a result fails here too.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/microkernel.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

namespace {

float random_input(float, std::mt19937& rng) {
  return static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 64.0f;
}
double random_input(double, std::mt19937& rng) {
  return static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 64.0;
}
std::uint16_t random_input(std::uint16_t, std::mt19937& rng) {
  // bf16 bits of a float in [-8, 8): the upper half of its f32 bits.
  const float x = random_input(0.0f, rng) / 16.0f;
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return static_cast<std::uint16_t>(bits >> 16);
}
std::int8_t random_input(std::int8_t, std::mt19937& rng) {
  return static_cast<std::int8_t>(rng());
}
std::int32_t random_input(std::int32_t, std::mt19937& rng) {
  return static_cast<std::int32_t>(rng() % 200001) - 100000;
}

// Returns how many (rows, accumulate) cases it compared.
template <typename In, typename Out>
int expect_rows_match_the_full_kernel(const packed::MicroKernel<In, Out>& uk) {
  std::mt19937 rng(31);
  const int MR = uk.mr, NR = uk.nr;
  // A multiple of every k block (bf16 pairs and BFMMLA's fours, int8 quads and SMMLA's
  // eights), and past the last 64 steps' C prefetch.
  const std::int64_t kc = 136;
  const std::int64_t ldc = NR + 5;
  std::vector<In> a_store(static_cast<std::size_t>(kc * MR + 64));
  // B's panel and its tail (the i8 kernel's starting values; any will do here).
  std::vector<In> b_store(static_cast<std::size_t>(kc * NR + uk.b_tail + 64));
  // The panels are read with aligned loads: 64-byte aligned views into the stores.
  auto aligned = [](std::vector<In>& v) {
    auto p = reinterpret_cast<std::uintptr_t>(v.data());
    return reinterpret_cast<In*>((p + 63) / 64 * 64);
  };
  In* a = aligned(a_store);
  In* b = aligned(b_store);
  for (std::int64_t i = 0; i < kc * MR; ++i) a[i] = random_input(In{}, rng);
  for (std::int64_t i = 0; i < kc * NR + uk.b_tail; ++i) b[i] = random_input(In{}, rng);
  std::vector<Out> c0(static_cast<std::size_t>(MR * ldc));
  for (Out& x : c0) x = static_cast<Out>(random_input(Out{}, rng));
  int cases = 0;
  for (int rows = 1; rows < MR; ++rows)
    for (bool accumulate : {false, true}) {
      std::vector<Out> full = c0, part = c0;
      uk.fn(kc, a, b, nullptr, full.data(), ldc, accumulate);
      uk.rows(rows, kc, a, b, b, part.data(), ldc, accumulate);
      for (int i = 0; i < MR; ++i)
        for (std::int64_t j = 0; j < ldc; ++j) {
          const auto at = static_cast<std::size_t>(i * ldc + j);
          const Out want = i < rows && j < NR ? full[at] : c0[at];
          EXPECT_EQ(part[at], want) << uk.name << " rows " << rows << " at C[" << i << "][" << j
                                    << "]" << (accumulate ? " accumulating" : "");
          if (part[at] != want) return cases;
        }
      ++cases;
    }
  return cases;
}

}  // namespace

// Each architecture's micro-kernels: the other's are not built.
#if defined(__x86_64__)
TEST(MicroKernelRows, Avx2RowsEqualTheFullKernelsAndTouchNothingElse) {
  if (!cpu_features().has_avx2_fma()) GTEST_SKIP() << "this CPU lacks AVX2 and FMA";
  EXPECT_EQ(expect_rows_match_the_full_kernel(packed::microkernel_f32_avx2()), 2 * 5);
  EXPECT_EQ(expect_rows_match_the_full_kernel(packed::microkernel_f64_avx2()), 2 * 5);
}

TEST(MicroKernelRows, Avx512RowsEqualTheFullKernelsAndTouchNothingElse) {
  if (!cpu_features().has_avx512()) GTEST_SKIP() << "this CPU lacks AVX-512 (F, DQ, BW, VL)";
  EXPECT_EQ(expect_rows_match_the_full_kernel(packed::microkernel_f32_avx512()), 2 * 5);
  EXPECT_EQ(expect_rows_match_the_full_kernel(packed::microkernel_f64_avx512()), 2 * 5);
}

TEST(MicroKernelRows, Bf16RowsEqualTheFullKernelAndTouchNothingElse) {
  if (!cpu_features().has_avx512() || !cpu_features().avx512_bf16)
    GTEST_SKIP() << "the bf16 micro-kernel needs AVX-512 with AVX512_BF16, which this CPU lacks";
  EXPECT_EQ(expect_rows_match_the_full_kernel(packed::microkernel_bf16_avx512()), 2 * 13);
}

TEST(MicroKernelRows, I8RowsEqualTheFullKernelAndTouchNothingElse) {
  if (!cpu_features().has_avx512() || !cpu_features().avx512_vnni)
    GTEST_SKIP() << "the i8 micro-kernel needs AVX-512 with AVX512_VNNI, which this CPU lacks";
  EXPECT_EQ(expect_rows_match_the_full_kernel(packed::microkernel_i8_avx512()), 2 * 13);
}
#else
// Every rows count of each kernel, with and without accumulation.
template <typename In, typename Out>
int rows_of(const packed::MicroKernel<In, Out>& uk) {
  return 2 * (uk.mr - 1);
}

TEST(MicroKernelRows, NeonRowsEqualTheFullKernelsAndTouchNothingElse) {
  if (!cpu_features().neon) GTEST_SKIP() << "this CPU lacks Advanced SIMD (HWCAP_ASIMD)";
  const auto f32 = packed::microkernel_f32_neon();
  const auto f64 = packed::microkernel_f64_neon();
  EXPECT_EQ(expect_rows_match_the_full_kernel(f32), rows_of(f32));
  EXPECT_EQ(expect_rows_match_the_full_kernel(f64), rows_of(f64));
}

// At the process's vector length: scripts/run-tests-arm64 runs it at 128 and 256 bits.
TEST(MicroKernelRows, SveRowsEqualTheFullKernelsAndTouchNothingElse) {
  if (!cpu_features().sve) GTEST_SKIP() << "this CPU lacks SVE (HWCAP_SVE)";
  const auto f32 = packed::microkernel_f32_sve();
  const auto f64 = packed::microkernel_f64_sve();
  RecordProperty("sve_bits", cpu_features().sve_bits);
  EXPECT_EQ(expect_rows_match_the_full_kernel(f32), rows_of(f32));
  EXPECT_EQ(expect_rows_match_the_full_kernel(f64), rows_of(f64));
}

TEST(MicroKernelRows, BfmmlaRowsEqualTheFullKernelAndTouchNothingElse) {
  if (!cpu_features().neon_bf16) GTEST_SKIP() << "this CPU lacks BF16 (HWCAP2_BF16)";
  const auto uk = packed::microkernel_bf16_bfmmla();
  EXPECT_EQ(expect_rows_match_the_full_kernel(uk), rows_of(uk));
}

TEST(MicroKernelRows, SmmlaRowsEqualTheFullKernelAndTouchNothingElse) {
  if (!cpu_features().neon_i8mm) GTEST_SKIP() << "this CPU lacks I8MM (HWCAP2_I8MM)";
  const auto uk = packed::microkernel_i8_smmla();
  EXPECT_EQ(expect_rows_match_the_full_kernel(uk), rows_of(uk));
}
#endif

}  // namespace ridgeline
