#pragma once
// The AMX micro-kernel of the packed GEMM (packed_gemm.hpp), written once against the tile
// interface (amx_tiles.hpp), so the same code runs on the instructions (amx_microkernel.cpp)
// and on their model (amx_microkernel_model.cpp, checked on every CPU).
//
// A 32 x 32 block of C in four accumulator tiles (2 x 2 of 16 x 16 f32 or i32), for bf16 in
// (C in f32, TDPBF16PS) and int8 in (C in i32, TDPBSSD). Per k tile (KT = 32 bf16 or 64
// int8 steps: one 64-byte tile row) two A tiles and two B tiles are loaded and four products
// made, so each loaded tile serves two products: 4 KiB loaded per 4 x 16 cycles of the unit.
//
// Packed operands, zero-padded to whole tiles (k to a multiple of KT, rows and columns to 32):
// - A (pack_a_tiles): per k tile, the panel's 32 rows of KT steps each, a row's steps
//   contiguous, so a tile is 16 rows 64 bytes apart: a[(p / KT) * 32 * KT + i * KT + p % KT].
// - B: the vector kernels' grouped layout (microkernel.hpp: pairs of bf16, quads of int8 along
//   k, 32 columns a group row), which is the VNNI order the tiles take; a tile is 16 group
//   rows of 16 columns, 128 bytes apart, the right-hand tile 64 bytes on. The driver's
//   padding of k ends at kGroup steps; pack_b_tiles zeroes the rest of the last k tile.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "amx_tiles.hpp"
#include "microkernel.hpp"

namespace ridgeline::packed::amx_gemm {

inline constexpr int kMR = amx_gemm_mr, kNR = amx_gemm_nr;

// k steps in one tile row (64 bytes of In).
template <typename In>
inline constexpr int kTileK = static_cast<int>(64 / sizeof(In));

template <typename In>
struct Accumulator;
template <>
struct Accumulator<std::uint16_t> {
  using type = float;
};
template <>
struct Accumulator<std::int8_t> {
  using type = std::int32_t;
};
template <typename In>
using Out = typename Accumulator<In>::type;

// A's panel in tiles (above): `lanes` rows of kc steps, lane l's step p at
// src[l * lane_stride + p * k_stride]; a PackPanelFn.
template <typename In>
void pack_a_tiles(const In* src, std::int64_t lane_stride, std::int64_t k_stride,
                  std::int64_t lanes, std::int64_t kc, int width, In* out) {
  constexpr int KT = kTileK<In>;
  const std::int64_t tiles = (kc + KT - 1) / KT;
  for (std::int64_t t = 0; t < tiles; ++t) {
    const std::int64_t p0 = t * KT, steps = std::min<std::int64_t>(KT, kc - p0);
    In* tile = out + t * width * KT;
    for (std::int64_t l = 0; l < width; ++l) {
      In* row = tile + l * KT;
      if (l >= lanes) {
        std::memset(row, 0, sizeof(In) * KT);
        continue;
      }
      const In* s = src + l * lane_stride + p0 * k_stride;
      if (k_stride == 1) {  // a row-major A: each tile row is one copy
        std::memcpy(row, s, sizeof(In) * static_cast<std::size_t>(steps));
      } else {
        for (std::int64_t p = 0; p < steps; ++p) row[p] = s[p * k_stride];
      }
      if (steps < KT)
        std::memset(row + steps, 0, sizeof(In) * static_cast<std::size_t>(KT - steps));
    }
  }
}

// B's panel: the grouped packing `Grouped` (pack_panel, or an ISA's copy of it), then the rest
// of the last k tile zeroed.
template <typename In, PackPanelFn<In> Grouped>
void pack_b_tiles(const In* src, std::int64_t lane_stride, std::int64_t k_stride,
                  std::int64_t lanes, std::int64_t kc, int width, In* out) {
  Grouped(src, lane_stride, k_stride, lanes, kc, width, out);
  constexpr int K = kGroup<In>, KT = kTileK<In>;
  const std::int64_t grouped = (kc + K - 1) / K * K, padded = (kc + KT - 1) / KT * KT;
  std::memset(out + grouped * width, 0,
              sizeof(In) * static_cast<std::size_t>((padded - grouped) * width));
}

// C[0:32, 0:32] (row stride ldc) := (accumulate ? C : 0) + A_panel * B_panel over kp steps (a
// multiple of KT), on tiles already configured as AmxTileConfig::full_tiles(). `next`: the
// driver's next B panel, kp / kNextEvery lines of it requested into L2 (microkernel.hpp).
template <typename Tiles, typename In>
inline void product(Tiles& t, std::int64_t kp, const In* a, const In* b, const In* next, Out<In>* c,
                    std::int64_t ldc, bool accumulate) {
  constexpr int KT = kTileK<In>;
  constexpr std::size_t kTileBytes = 1024, kBRow = kNR * kGroup<In> * sizeof(In);  // 128
  const std::size_t c_row = static_cast<std::size_t>(ldc) * sizeof(Out<In>);
  Out<In>* c10 = c + 16 * ldc;
  if (accumulate) {
    t.template load<0>(c, c_row);
    t.template load<1>(c + 16, c_row);
    t.template load<2>(c10, c_row);
    t.template load<3>(c10 + 16, c_row);
  } else {
    t.template zero<0>();
    t.template zero<1>();
    t.template zero<2>();
    t.template zero<3>();
  }
  const auto* ap = reinterpret_cast<const std::uint8_t*>(a);
  const auto* bp = reinterpret_cast<const std::uint8_t*>(b);
  const auto* np = reinterpret_cast<const char*>(next);
  constexpr int kLinesPerTile = KT / static_cast<int>(kNextEvery);
  // The next call's block of C (the driver's next A panel: 32 rows down), two rows a k tile,
  // for writing: its tile loads and stores then find it in cache rather than wait on 16 rows
  // of misses each (bf16 2048^3, one thread, Emerald Rapids VM: 0.95x MKL against 0.86x
  // without, medians of 54 interleaved pairs). Past the matrix's last rows the prefetches
  // are dropped by the hardware, never faulting.
  const std::uintptr_t c_next = reinterpret_cast<std::uintptr_t>(c) + kMR * c_row;
  int c_row_next = 0;
  for (std::int64_t p = 0; p < kp; p += KT, ap += 2 * kTileBytes, bp += 2 * kTileBytes) {
    if (np)
      for (int l = 0; l < kLinesPerTile; ++l, np += kLineBytes) __builtin_prefetch(np, 0, 2);
    if (c_row_next < kMR)
      for (int r = 0; r < 2; ++r, ++c_row_next)
        for (std::size_t l = 0; l < kNR * sizeof(Out<In>); l += kLineBytes)
          __builtin_prefetch(reinterpret_cast<const void*>(c_next + c_row_next * c_row + l), 1, 3);
    t.template load<4>(ap, 64);
    t.template load<6>(bp, kBRow);
    if constexpr (std::is_same_v<In, std::uint16_t>) {
      t.template dpbf16ps<0, 4, 6>();
      t.template load<7>(bp + 64, kBRow);
      t.template dpbf16ps<1, 4, 7>();
      t.template load<5>(ap + kTileBytes, 64);
      t.template dpbf16ps<2, 5, 6>();
      t.template dpbf16ps<3, 5, 7>();
    } else {
      t.template dpbssd<0, 4, 6>();
      t.template load<7>(bp + 64, kBRow);
      t.template dpbssd<1, 4, 7>();
      t.template load<5>(ap + kTileBytes, 64);
      t.template dpbssd<2, 5, 6>();
      t.template dpbssd<3, 5, 7>();
    }
  }
  t.template store<0>(c, c_row);
  t.template store<1>(c + 16, c_row);
  t.template store<2>(c10, c_row);
  t.template store<3>(c10 + 16, c_row);
}

// The MicroKernel's entry points over the tiles `TilesOf::get()` returns (configured by
// TilesOf::begin on this thread), and Finish::apply(x, ldx, c, ldc, bias, act) for the
// epilogue: c := act(x + bias) on a 32 x 32 block the product just stored (in L1).
template <typename TilesOf, typename In>
void kernel(std::int64_t kp, const In* a, const In* b, const In* next, Out<In>* c, std::int64_t ldc,
            bool accumulate) {
  product(TilesOf::get(), kp, a, b, next, c, ldc, accumulate);
}

// The first `rows` rows: the block through a scratch tile (the last panel of an m that is not
// a multiple of 32, once per B panel).
template <typename TilesOf, typename In>
void kernel_rows(int rows, std::int64_t kp, const In* a, const In* b, const In* next, Out<In>* c,
                 std::int64_t ldc, bool accumulate) {
  alignas(64) Out<In> block[kMR * kNR];
  product(TilesOf::get(), kp, a, b, next, block, kNR, false);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < kNR; ++j)
      c[i * ldc + j] = (accumulate ? c[i * ldc + j] : Out<In>(0)) + block[i * kNR + j];
}

// The tiles go to a block in L1 and C is written once, with its final values, from there.
template <typename TilesOf, typename Finish, typename In>
void kernel_epilogue(std::int64_t kp, const In* a, const In* b, const In* next, Out<In>* c,
                     std::int64_t ldc, bool accumulate, const In* bias, ops::Activation act) {
  if (accumulate) {  // the partial sums of the earlier kc blocks are in C
    product(TilesOf::get(), kp, a, b, next, c, ldc, true);
    Finish::apply(c, ldc, c, ldc, bias, act);
    return;
  }
  alignas(64) Out<In> block[kMR * kNR];
  product(TilesOf::get(), kp, a, b, next, block, kNR, false);
  Finish::apply(block, kNR, c, ldc, bias, act);
}

// The MicroKernel on TilesOf (also begin and end: configure and release them on a thread),
// with B grouped by `Grouped`; `epilogue` (kernel_epilogue with a Finish) or nullptr.
template <typename TilesOf, typename In, PackPanelFn<In> Grouped>
MicroKernel<In, Out<In>> micro_kernel(const char* name,
                                      MicroKernelEpilogueFn<In, Out<In>> epilogue) {
  MicroKernel<In, Out<In>> uk{name,
                              kMR,
                              kNR,
                              &kernel<TilesOf, In>,
                              &kernel_rows<TilesOf, In>,
                              epilogue,
                              &pack_b_tiles<In, Grouped>};
  uk.pack_a = &pack_a_tiles<In>;
  uk.k_block = kTileK<In>;
  uk.tile_engine = true;
  uk.begin = &TilesOf::begin;
  uk.end = &TilesOf::end;
  return uk;
}

}  // namespace ridgeline::packed::amx_gemm
