// Peak loops for the AMX tile unit, full 16 x 64-byte tiles held in the tile registers so that
// the loop is the unit alone. One TDPBF16PS multiplies 16 x 32 bf16 by 32 x 16 (16,384 FLOPs),
// one TDPBSSD 16 x 64 int8 by 64 x 16 (32,768 OPs). Two ways to keep the unit fed, and cores
// differ in which is faster: four accumulators (C0..C3 += A0|A1 x B0|B1, a GEMM's 2 x 2 block)
// and one accumulator updated back to back. On the Emerald Rapids VM (family 6, model 0xCF)
// the second ran at 93% of 1,024 bf16 FLOPs a cycle and the first at 37%; the probe keeps the
// faster, measured once per process, and its method says which. Built with -mamx-tile
// -mamx-bf16 -mamx-int8; called only where amx_support() found the tiles usable.
#include <chrono>
#include <cstdint>

#include "../cpu/amx_hardware_tiles.hpp"
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

template <bool Int8, int C, int A, int B>
void product(amx::AmxHardwareTiles& tiles) {
  if constexpr (Int8)
    tiles.dpbssd<C, A, B>();
  else
    tiles.dpbf16ps<C, A, B>();
}

// Four tile instructions an iteration either way (the spec counts four); the pattern is a
// template argument, so the timed loop holds the instructions alone.
template <bool Int8, TilePattern Pattern>
double run_tiles(std::int64_t iterations) {
  amx::AmxHardwareTiles tiles;
  tiles.configure(AmxTileConfig::full_tiles());
  const TileOperands operands(Int8 ? 0x0101 : 0x3C00);
  tiles.zero<0>();
  tiles.zero<1>();
  tiles.zero<2>();
  tiles.zero<3>();
  tiles.load<4>(operands.words, 64);
  tiles.load<5>(operands.words, 64);
  tiles.load<6>(operands.words, 64);
  tiles.load<7>(operands.words, 64);
  constexpr bool four = Pattern == TilePattern::four_accumulators;
  for (std::int64_t it = 0; it < iterations; ++it) {
    product<Int8, 0, 4, 6>(tiles);
    product<Int8, four ? 1 : 0, 4, 7>(tiles);
    product<Int8, four ? 2 : 0, 5, 6>(tiles);
    product<Int8, four ? 3 : 0, 5, 7>(tiles);
  }
  alignas(64) std::int32_t out[16 * 16];
  tiles.store<0>(out, 64);
  const double first = out[0];
  tiles.store<3>(out, 64);
  tiles.release();
  return first + out[255];
}

template <bool Int8>
double run_tiles(std::int64_t iterations, TilePattern pattern) {
  return pattern == TilePattern::one_accumulator
             ? run_tiles<Int8, TilePattern::one_accumulator>(iterations)
             : run_tiles<Int8, TilePattern::four_accumulators>(iterations);
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
