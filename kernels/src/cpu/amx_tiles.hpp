#pragma once
// The AMX tile unit behind one small interface with two implementations, so that a kernel
// written against it runs on any CPU (issue #63, item 6):
// - AmxModelTiles: plain C++ of the instructions' documented semantics (Intel SDM, TDPBF16PS
//   and TDPBSSD): eight tile registers of up to 16 rows x 64 bytes, configured as LDTILECFG
//   does; a kernel run on it is checked by the conformance tests on every machine;
// - AmxHardwareTiles (amx_hardware_tiles.hpp): the instructions themselves, in translation
//   units built with -mamx-tile -mamx-bf16 -mamx-int8, run only where amx_support() allows.
// Tile numbers are template arguments because the instructions encode them; the products
// keep to one register plan (in_register_plan).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ridgeline/kernels/amx.hpp"

namespace ridgeline::amx {

// The register plan of every AMX kernel: accumulators C in tiles 0-3, A in 4-5, B in 6-7 (a
// 2 x 2 block of C tiles; the instructions name their registers, so the plan is fixed).
constexpr bool in_register_plan(int c, int a, int b) {
  return c >= 0 && c < 4 && a >= 4 && a < 6 && b >= 6 && b < 8;
}

class AmxModelTiles {
 public:
  void configure(const AmxTileConfig& config) {
    for (int t = 0; t < 8; ++t) {
      tiles_[t].rows = config.rows[t];
      tiles_[t].colsb = config.bytes_per_row[t];
      std::memset(tiles_[t].bytes, 0, sizeof tiles_[t].bytes);
    }
  }
  template <int T>
  void zero() {
    std::memset(tiles_[T].bytes, 0, sizeof tiles_[T].bytes);
  }
  // Rows of `colsb` bytes, `stride` bytes apart; the rest of the tile zero (as TILELOADD).
  template <int T>
  void load(const void* base, std::size_t stride) {
    Tile& t = tiles_[T];
    std::memset(t.bytes, 0, sizeof t.bytes);
    for (int r = 0; r < t.rows; ++r)
      std::memcpy(t.bytes + r * 64, static_cast<const std::uint8_t*>(base) + r * stride,
                  static_cast<std::size_t>(t.colsb));
  }
  template <int T>
  void store(void* base, std::size_t stride) const {
    const Tile& t = tiles_[T];
    for (int r = 0; r < t.rows; ++r)
      std::memcpy(static_cast<std::uint8_t*>(base) + r * stride, t.bytes + r * 64,
                  static_cast<std::size_t>(t.colsb));
  }
  // C (rows x colsb/4 f32) += A (rows x colsb/2 bf16) . B, B's row k holding the pairs
  // (2k, 2k+1) of every column: the SDM's loop, each product exact in f32 (8-bit
  // significands), the two of a pair added to the accumulator one after the other.
  template <int C, int A, int B>
  void dpbf16ps() {
    static_assert(in_register_plan(C, A, B));
    Tile& c = tiles_[C];
    const Tile &a = tiles_[A], &b = tiles_[B];
    for (int m = 0; m < c.rows; ++m)
      for (int k = 0; k < a.colsb / 4; ++k)
        for (int n = 0; n < c.colsb / 4; ++n) {
          float acc = f32_at(c, m, n);
          acc += flush(bf16_at(a, m, 2 * k) * bf16_at(b, k, 2 * n));
          acc += flush(bf16_at(a, m, 2 * k + 1) * bf16_at(b, k, 2 * n + 1));
          set_f32(c, m, n, flush(acc));
        }
  }
  // C (i32) += A (int8) . B, B's row k holding the quads (4k..4k+3) of every column; signed
  // bytes, the sum wrapping as the hardware's does.
  template <int C, int A, int B>
  void dpbssd() {
    static_assert(in_register_plan(C, A, B));
    Tile& c = tiles_[C];
    const Tile &a = tiles_[A], &b = tiles_[B];
    for (int m = 0; m < c.rows; ++m)
      for (int k = 0; k < a.colsb / 4; ++k)
        for (int n = 0; n < c.colsb / 4; ++n) {
          std::uint32_t sum = 0;
          for (int i = 0; i < 4; ++i)
            sum += static_cast<std::uint32_t>(s8_at(a, m, 4 * k + i) * s8_at(b, k, 4 * n + i));
          std::int32_t acc;
          std::memcpy(&acc, c.bytes + m * 64 + n * 4, 4);
          acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc) + sum);
          std::memcpy(c.bytes + m * 64 + n * 4, &acc, 4);
        }
  }
  void release() {}

 private:
  struct Tile {
    int rows = 0, colsb = 0;
    alignas(64) std::uint8_t bytes[1024] = {};
  };
  // Denormals in and out are zero (the SDM: DAZ and FTZ whatever MXCSR says).
  static float flush(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    if ((bits & 0x7F800000u) == 0) bits &= 0x80000000u;
    std::memcpy(&x, &bits, 4);
    return x;
  }
  static float bf16_at(const Tile& t, int row, int index) {
    std::uint16_t h;
    std::memcpy(&h, t.bytes + row * 64 + index * 2, 2);
    const std::uint32_t bits = std::uint32_t{h} << 16;
    float x;
    std::memcpy(&x, &bits, 4);
    return flush(x);
  }
  static int s8_at(const Tile& t, int row, int index) {
    return static_cast<std::int8_t>(t.bytes[row * 64 + index]);
  }
  static float f32_at(const Tile& t, int row, int column) {
    float x;
    std::memcpy(&x, t.bytes + row * 64 + column * 4, 4);
    return x;
  }
  static void set_f32(Tile& t, int row, int column, float x) {
    std::memcpy(t.bytes + row * 64 + column * 4, &x, 4);
  }
  Tile tiles_[8];
};

// The calling thread's model tiles, as the kernels written against the interface take them
// (get, and begin and end around a thread's share: configure, release).
struct ModelTilesOfThread {
  static AmxModelTiles& get() {
    thread_local AmxModelTiles tiles;
    return tiles;
  }
  static void begin() { get().configure(AmxTileConfig::full_tiles()); }
  static void end() { get().release(); }
};

}  // namespace ridgeline::amx
