// The tile model (kernels/src/cpu/amx_tiles.hpp) computes what the ISA defines, on full and
// partial tiles, and matches the AMX instructions where this CPU has them: the model is what
// AMX kernels are checked through on every other machine (issue #63, item 6). Built with
// -mamx-tile -mamx-bf16 -mamx-int8; the instructions run only where amx_support() allows.
#include "cpu/amx_tiles.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "cpu/amx_hardware_tiles.hpp"
#include "ridgeline/kernels/amx.hpp"

namespace ridgeline::amx {
namespace {

std::uint16_t to_bf16(float x) {  // exact for the values used (small integers, or truncated)
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return static_cast<std::uint16_t>(bits >> 16);
}
float from_bf16(std::uint16_t h) {
  const std::uint32_t bits = std::uint32_t{h} << 16;
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}

// One product's tiles configured to fit: C (tile 0) rows x c_bytes, A (tile 4) rows x a_bytes,
// B (tile 6) b_rows x c_bytes (B's rows hold a pair or quad of every column).
AmxTileConfig product_tiles(int rows, int a_bytes, int b_rows, int c_bytes) {
  AmxTileConfig config;
  config.rows[0] = config.rows[4] = static_cast<unsigned char>(rows);
  config.bytes_per_row[0] = config.bytes_per_row[6] = static_cast<unsigned short>(c_bytes);
  config.bytes_per_row[4] = static_cast<unsigned short>(a_bytes);
  config.rows[6] = static_cast<unsigned char>(b_rows);
  return config;
}

// One multiply: C (rows x n) = A (rows x k) . B (k x n), with A's rows and B packed in the
// tile layouts (B's row k/2 holds the pairs of every column), on tiles configured to fit.
struct Bf16Problem {
  int rows, k, n;
  std::vector<std::uint16_t> a, b_packed;  // rows x 32 and 16 x 32 words (64-byte rows)
  std::vector<float> expected;             // rows x n, in double then rounded
  AmxTileConfig config;
  Bf16Problem(int rows_, int k_, int n_, bool integers, unsigned seed)
      : rows(rows_), k(k_), n(n_), a(16 * 32), b_packed(16 * 32), expected(rows_ * n_) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> small(-8, 8);
    std::normal_distribution<float> normal;
    auto value = [&] { return integers ? static_cast<float>(small(gen)) : normal(gen); };
    std::vector<float> am(rows * k), bm(k * n);
    for (auto& x : am) x = from_bf16(to_bf16(value()));
    for (auto& x : bm) x = from_bf16(to_bf16(value()));
    for (int m = 0; m < rows; ++m)
      for (int kk = 0; kk < k; ++kk) a[m * 32 + kk] = to_bf16(am[m * k + kk]);
    for (int kk = 0; kk < k; ++kk)
      for (int c = 0; c < n; ++c)
        b_packed[(kk / 2) * 32 + c * 2 + kk % 2] = to_bf16(bm[kk * n + c]);
    for (int m = 0; m < rows; ++m)
      for (int c = 0; c < n; ++c) {
        double sum = 0;
        for (int kk = 0; kk < k; ++kk) sum += double(am[m * k + kk]) * bm[kk * n + c];
        expected[m * n + c] = static_cast<float>(sum);
      }
    config = product_tiles(rows, k * 2, k / 2, n * 4);
  }
  template <typename Tiles>
  std::vector<float> run() const {
    Tiles tiles;
    tiles.configure(config);
    tiles.template zero<0>();
    tiles.template load<4>(a.data(), 64);
    tiles.template load<6>(b_packed.data(), 64);
    tiles.template dpbf16ps<0, 4, 6>();
    std::vector<float> c(16 * 16);
    tiles.template store<0>(c.data(), 64);
    tiles.release();
    std::vector<float> out(rows * n);
    for (int m = 0; m < rows; ++m)
      for (int col = 0; col < n; ++col) out[m * n + col] = c[m * 16 + col];
    return out;
  }
};

struct I8Problem {
  int rows, k, n;
  std::vector<std::int8_t> a, b_packed;  // 64-byte rows
  std::vector<std::int32_t> expected;
  AmxTileConfig config;
  I8Problem(int rows_, int k_, int n_, unsigned seed)
      : rows(rows_), k(k_), n(n_), a(16 * 64), b_packed(16 * 64), expected(rows_ * n_) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> byte(-128, 127);
    std::vector<int> am(rows * k), bm(k * n);
    for (auto& x : am) x = byte(gen);
    for (auto& x : bm) x = byte(gen);
    for (int m = 0; m < rows; ++m)
      for (int kk = 0; kk < k; ++kk) a[m * 64 + kk] = static_cast<std::int8_t>(am[m * k + kk]);
    for (int kk = 0; kk < k; ++kk)
      for (int c = 0; c < n; ++c)
        b_packed[(kk / 4) * 64 + c * 4 + kk % 4] = static_cast<std::int8_t>(bm[kk * n + c]);
    for (int m = 0; m < rows; ++m)
      for (int c = 0; c < n; ++c) {
        std::int64_t sum = 0;
        for (int kk = 0; kk < k; ++kk) sum += am[m * k + kk] * bm[kk * n + c];
        expected[m * n + c] = static_cast<std::int32_t>(sum);
      }
    config = product_tiles(rows, k, k / 4, n * 4);
  }
  template <typename Tiles>
  std::vector<std::int32_t> run() const {
    Tiles tiles;
    tiles.configure(config);
    tiles.template zero<0>();
    tiles.template load<4>(a.data(), 64);
    tiles.template load<6>(b_packed.data(), 64);
    tiles.template dpbssd<0, 4, 6>();
    std::vector<std::int32_t> c(16 * 16);
    tiles.template store<0>(c.data(), 64);
    tiles.release();
    std::vector<std::int32_t> out(rows * n);
    for (int m = 0; m < rows; ++m)
      for (int col = 0; col < n; ++col) out[m * n + col] = c[m * 16 + col];
    return out;
  }
};

// Full tiles and partial ones (the K, M and N tails a GEMM meets).
struct Shape {
  int rows, k, n;
};
const Shape kBf16Shapes[] = {{16, 32, 16}, {5, 12, 7}, {1, 2, 1}, {16, 30, 3}};
const Shape kI8Shapes[] = {{16, 64, 16}, {7, 20, 9}, {1, 4, 1}, {13, 60, 16}};

TEST(AmxTileModel, MultipliesAsTheIsaDefinesOnFullAndPartialTiles) {
  for (const Shape& s : kBf16Shapes) {
    const Bf16Problem p(s.rows, s.k, s.n, true, 7);
    EXPECT_EQ(p.run<AmxModelTiles>(), p.expected) << s.rows << "x" << s.k << "x" << s.n;
  }
  for (const Shape& s : kI8Shapes) {
    const I8Problem p(s.rows, s.k, s.n, 11);
    EXPECT_EQ(p.run<AmxModelTiles>(), p.expected) << s.rows << "x" << s.k << "x" << s.n;
  }
}

TEST(AmxTileModel, MatchesTheInstructionsWhereTheCpuHasThem) {
  const AmxSupport& amx = amx_support();
  if (!amx.usable() || !amx.bf16 || !amx.int8)
    GTEST_SKIP() << (amx.reason.empty() ? "no AMX-BF16 or AMX-INT8" : amx.reason);
  for (const Shape& s : kI8Shapes) {  // integers: bit for bit
    const I8Problem p(s.rows, s.k, s.n, 13);
    EXPECT_EQ(p.run<AmxHardwareTiles>(), p.run<AmxModelTiles>()) << s.rows << "x" << s.k;
  }
  for (const Shape& s : kBf16Shapes) {
    const Bf16Problem exact(s.rows, s.k, s.n, true, 17);  // every sum exact in f32
    EXPECT_EQ(exact.run<AmxHardwareTiles>(), exact.run<AmxModelTiles>()) << s.rows << "x" << s.k;
    // Normal data: the hardware's order of additions within a row is its own; the model
    // agrees to a few f32 roundings of the sum.
    const Bf16Problem normal(s.rows, s.k, s.n, false, 19);
    const std::vector<float> hw = normal.run<AmxHardwareTiles>(),
                             model = normal.run<AmxModelTiles>();
    for (std::size_t i = 0; i < hw.size(); ++i)
      EXPECT_NEAR(hw[i], model[i], 1e-5 * (1 + std::fabs(normal.expected[i])))
          << s.rows << "x" << s.k << " element " << i;
  }
}

}  // namespace
}  // namespace ridgeline::amx
