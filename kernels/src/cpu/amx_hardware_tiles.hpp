#pragma once
// The AMX instructions behind AmxModelTiles' interface (amx_tiles.hpp). Include only from a
// translation unit built with -mamx-tile -mamx-bf16 -mamx-int8, and call only where
// amx_support().usable(): the permission is asked there. GCC's tile intrinsics paste the
// register number into the instruction's text, so each number is spelled out below: any
// tile for loads, stores and zeroing, and the register plan of amx_tiles.hpp (C in 0-3, A in
// 4-5, B in 6-7) for the products.
#include <immintrin.h>

#include <cstddef>

#include "amx_tiles.hpp"
#include "ridgeline/kernels/amx.hpp"

#define RIDGELINE_ANY_TILE(T, op, ...) \
  if constexpr (T == 0)                \
    op(0, __VA_ARGS__);                \
  else if constexpr (T == 1)           \
    op(1, __VA_ARGS__);                \
  else if constexpr (T == 2)           \
    op(2, __VA_ARGS__);                \
  else if constexpr (T == 3)           \
    op(3, __VA_ARGS__);                \
  else if constexpr (T == 4)           \
    op(4, __VA_ARGS__);                \
  else if constexpr (T == 5)           \
    op(5, __VA_ARGS__);                \
  else if constexpr (T == 6)           \
    op(6, __VA_ARGS__);                \
  else                                 \
    op(7, __VA_ARGS__)
#define RIDGELINE_PRODUCT_IN(C, A, B, op, c, a, b) \
  if constexpr (C == c && A == a && B == b) op(c, a, b);
#define RIDGELINE_PRODUCT_FOR_C(C, A, B, op, c) \
  RIDGELINE_PRODUCT_IN(C, A, B, op, c, 4, 6)    \
  RIDGELINE_PRODUCT_IN(C, A, B, op, c, 4, 7)    \
  RIDGELINE_PRODUCT_IN(C, A, B, op, c, 5, 6)    \
  RIDGELINE_PRODUCT_IN(C, A, B, op, c, 5, 7)
#define RIDGELINE_PRODUCT(C, A, B, op)    \
  RIDGELINE_PRODUCT_FOR_C(C, A, B, op, 0) \
  RIDGELINE_PRODUCT_FOR_C(C, A, B, op, 1) \
  RIDGELINE_PRODUCT_FOR_C(C, A, B, op, 2) \
  RIDGELINE_PRODUCT_FOR_C(C, A, B, op, 3)

namespace ridgeline::amx {

class AmxHardwareTiles {
 public:
  void configure(const AmxTileConfig& config) { _tile_loadconfig(&config); }
  template <int T>
  void zero() {
    static_assert(T >= 0 && T < 8);
    // _tile_zero takes the number alone: a second, unused argument keeps one macro for all.
#define RIDGELINE_TILE_ZERO(t, unused) _tile_zero(t)
    RIDGELINE_ANY_TILE(T, RIDGELINE_TILE_ZERO, 0);
#undef RIDGELINE_TILE_ZERO
  }
  template <int T>
  void load(const void* base, std::size_t stride) {
    static_assert(T >= 0 && T < 8);
    const long bytes = static_cast<long>(stride);
    RIDGELINE_ANY_TILE(T, _tile_loadd, base, bytes);
  }
  template <int T>
  void store(void* base, std::size_t stride) const {
    static_assert(T >= 0 && T < 8);
    const long bytes = static_cast<long>(stride);
    RIDGELINE_ANY_TILE(T, _tile_stored, base, bytes);
  }
  template <int C, int A, int B>
  void dpbf16ps() {
    static_assert(in_register_plan(C, A, B));
    RIDGELINE_PRODUCT(C, A, B, _tile_dpbf16ps)
  }
  template <int C, int A, int B>
  void dpbssd() {
    static_assert(in_register_plan(C, A, B));
    RIDGELINE_PRODUCT(C, A, B, _tile_dpbssd)
  }
  void release() {
    _tile_release();
  }
};

// ModelTilesOfThread's counterpart: the state is the core's registers, so one stateless object.
struct HardwareTilesOfThread {
  static AmxHardwareTiles& get() {
    static AmxHardwareTiles tiles;
    return tiles;
  }
  static void begin() { get().configure(AmxTileConfig::full_tiles()); }
  static void end() { get().release(); }
};

}  // namespace ridgeline::amx

#undef RIDGELINE_PRODUCT
#undef RIDGELINE_PRODUCT_FOR_C
#undef RIDGELINE_PRODUCT_IN
#undef RIDGELINE_ANY_TILE
