// Peak loops for the AMX tile unit, full 16 x 64-byte tiles held in the tile registers so that
// the loop is the unit alone. One TDPBF16PS multiplies 16 x 32 bf16 by 32 x 16 (16,384 FLOPs),
// one TDPBSSD 16 x 64 int8 by 64 x 16 (32,768 OPs). Two ways to keep the unit fed, and cores
// differ in which is faster: four accumulators (C0..C3 += A0|A1 x B0|B1, a GEMM's 2 x 2 block)
// and one accumulator updated back to back. On the Emerald Rapids VM (family 6, model 0xCF)
// the second ran at 93% of 1,024 bf16 FLOPs a cycle and the first at 37%; the probe keeps the
// faster, measured once per process, and its method says which. Built with -mamx-tile
// -mamx-bf16 -mamx-int8; called only where amx_support() found the tiles usable.
#include <immintrin.h>

#include <chrono>
#include <cstdint>

#include "peak_kernels.hpp"
#include "ridgeline/kernels/amx.hpp"

namespace ridgeline::ceilings {

namespace {

enum class TilePattern { four_accumulators, one_accumulator };

// Every element of A and B the same small value, so that nothing in the accumulators
// overflows a finite f32 (bf16 0x3C00 is 2^-7) or matters if i32 wraps.
struct alignas(64) TileOperands {
  std::uint16_t words[16 * 32];
  explicit TileOperands(std::uint16_t w) {
    for (auto& x : words) x = w;
  }
};

template <bool Int8>
void tile_step(TilePattern pattern) {
  // Four instructions an iteration either way: the spec counts four.
  if (pattern == TilePattern::four_accumulators) {
    if constexpr (Int8) {
      _tile_dpbssd(0, 4, 6);
      _tile_dpbssd(1, 4, 7);
      _tile_dpbssd(2, 5, 6);
      _tile_dpbssd(3, 5, 7);
    } else {
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(1, 4, 7);
      _tile_dpbf16ps(2, 5, 6);
      _tile_dpbf16ps(3, 5, 7);
    }
  } else {
    if constexpr (Int8) {
      _tile_dpbssd(0, 4, 6);
      _tile_dpbssd(0, 4, 7);
      _tile_dpbssd(0, 5, 6);
      _tile_dpbssd(0, 5, 7);
    } else {
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(0, 4, 7);
      _tile_dpbf16ps(0, 5, 6);
      _tile_dpbf16ps(0, 5, 7);
    }
  }
}

template <bool Int8>
double run_tiles(std::int64_t iterations, TilePattern pattern) {
  const AmxTileConfig config = AmxTileConfig::full_tiles();
  _tile_loadconfig(&config);
  const TileOperands operands(Int8 ? 0x0101 : 0x3C00);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_loadd(4, operands.words, 64);
  _tile_loadd(5, operands.words, 64);
  _tile_loadd(6, operands.words, 64);
  _tile_loadd(7, operands.words, 64);
  for (std::int64_t it = 0; it < iterations; ++it) tile_step<Int8>(pattern);
  alignas(64) std::int32_t out[16 * 16];
  _tile_stored(0, out, 64);
  const double first = out[0];
  _tile_stored(3, out, 64);
  _tile_release();
  return first + out[255];
}

// The faster pattern on this core, timed once (about 10 ms each).
template <bool Int8>
TilePattern fastest_pattern() {
  static const TilePattern pattern = [] {
    auto seconds = [](TilePattern p) {
      run_tiles<Int8>(2000, p);  // warm: the unit's first use after the permission
      const auto start = std::chrono::steady_clock::now();
      run_tiles<Int8>(20000, p);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    return seconds(TilePattern::one_accumulator) < seconds(TilePattern::four_accumulators)
               ? TilePattern::one_accumulator
               : TilePattern::four_accumulators;
  }();
  return pattern;
}

std::string describe(TilePattern p) {
  return p == TilePattern::one_accumulator
             ? "one accumulating tile updated back to back (faster here than four)"
             : "four accumulating tiles, 2 x 2 of two A and two B tiles (faster here than one)";
}

}  // namespace

double peak_bf16_amx(std::int64_t iterations) {
  return run_tiles<false>(iterations, fastest_pattern<false>());
}

double peak_i8_amx(std::int64_t iterations) {
  return run_tiles<true>(iterations, fastest_pattern<true>());
}

std::string peak_bf16_amx_method() {
  return "TDPBF16PS on full 16 x 64-byte tiles held in the tile registers: " +
         describe(fastest_pattern<false>());
}

std::string peak_i8_amx_method() {
  return "TDPBSSD on full 16 x 64-byte tiles held in the tile registers: " +
         describe(fastest_pattern<true>());
}

}  // namespace ridgeline::ceilings
