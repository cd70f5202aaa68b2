#pragma once
// The AArch64 matrix-multiply-accumulate micro-kernels, written once over a traits type S:
// BFMMLA (bf16 in, f32 C: microkernel_neon_bf16.cpp) and SMMLA (int8 in, i32 C:
// microkernel_neon_i8mm.cpp). One instruction multiplies a 2 x K matrix (a 128-bit register, its
// rows one after the other) by a K x 2 one (its columns one after the other) into a 2 x 2 block
// of C (one register, row-major): K = 4 bf16 or 8 int8 (Arm ARM: BFMMLA, SMMLA; ACLE
// vbfmmlaq_f32, vmmlaq_s32).
//
// The tile is 8 x 12 (KleidiAI's shape for these instructions, its *_8x12_neon_mmla kernels):
// 4 row pairs x 6 column pairs, 24 accumulators of the 32 vector registers; per K steps 4 loads
// of A and 6 of B for 24 instructions.
//
// Packed panels: the layout of panel_packing.hpp with K = S::kK steps a group (the driver's
// k_block) instead of kGroup<In>: lane l's step p at out[(p / K) * width * K + l * K + p % K].
// Lanes 2r and 2r + 1 of one group are then 16 contiguous bytes, the register each instruction
// takes, for A's row pairs and B's column pairs alike. pack_groups packs both.
//
// Traits S: In, Out, VIn (128 bits of In), V (4 Out), kK, load_in, mmla(acc, a, b), zero,
// load, store, add, zip_lo / zip_hi (the 64-bit halves: a 2 x 2 block's rows); for the
// epilogue also load_bias (4 entries of the bias, widened to Out) and Act (the activation's
// traits, activation_simd.hpp, over V). Included only by those two units; the anonymous
// namespace gives each its own copy.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "../ops/activation_simd.hpp"
#include "microkernel.hpp"

namespace ridgeline::packed {
namespace {

namespace mmla {

inline constexpr int kMR = 8, kNR = 12;
inline constexpr int kPairs = kMR / 2, kColPairs = kNR / 2;

// What the tile's store does: plain, or the gemm_bias_act epilogue with an activation.
enum class Finish { store, relu, gelu_tanh };

// A panel of `lanes` lanes (up to width) of kc steps, in groups of K (above); zero-padded to
// width lanes and a multiple of K steps. A PackPanelFn.
template <typename In, int K>
void pack_groups(const In* src, std::int64_t lane_stride, std::int64_t k_stride, std::int64_t lanes,
                 std::int64_t kc, int width, In* __restrict out) {
  const std::int64_t groups = (kc + K - 1) / K, whole = kc / K;
  if (lanes < width || whole != groups)
    std::memset(out, 0, sizeof(In) * static_cast<std::size_t>(groups * K * width));
  if (k_stride == 1) {
    // A lane's group is K contiguous entries (8 bytes for both types): one copy each.
    for (std::int64_t g = 0; g < whole; ++g)
      for (std::int64_t l = 0; l < lanes; ++l)
        std::memcpy(out + (g * width + l) * K, src + l * lane_stride + g * K, sizeof(In) * K);
    for (std::int64_t p = whole * K; p < kc; ++p)
      for (std::int64_t l = 0; l < lanes; ++l)
        out[(whole * width + l) * K + p % K] = src[l * lane_stride + p];
  } else {
    // Along the lanes, the unit stride where B is row-major.
    for (std::int64_t p = 0; p < kc; ++p) {
      const In* s = src + p * k_stride;
      In* d = out + p / K * width * K + p % K;
      for (std::int64_t l = 0; l < lanes; ++l) d[l * K] = s[l * lane_stride];
    }
  }
}

// An accumulated row's 4 entries to store: (accumulate ? C : 0) + x, or with the epilogue
// act((accumulate ? C : 0) + (x + bias)), the order microkernel_body.hpp adds in.
template <typename S, Finish kFinish>
[[gnu::always_inline]] inline typename S::V finish(typename S::V x, const typename S::Out* c,
                                                   bool accumulate, typename S::V bias) {
  if constexpr (kFinish != Finish::store) x = S::add(x, bias);
  if (accumulate) x = S::add(S::load(c), x);
  if constexpr (kFinish == Finish::relu) x = ops::relu<typename S::Act>(x);
  if constexpr (kFinish == Finish::gelu_tanh) x = ops::gelu_tanh<typename S::Act>(x);
  return x;
}

// C[0:R, 0:12] from an A panel packed kMR rows wide (R < kMR: `rows`, which computes the row
// pairs that hold its rows and stores only those rows); kc is a multiple of K. The units are
// compiled with GCC's -fno-schedule-insns (kernels/CMakeLists.txt): its scheduling before
// register allocation hoists all 6 of B's loads of a group above the instructions, 34 live
// registers, and spilled two accumulators every group (GCC 12); without it each column
// pair's load sits before its 4 instructions, and nothing spills.
template <typename S, int R, Finish kFinish>
void tile(std::int64_t kc, const typename S::In* __restrict a, const typename S::In* __restrict b,
          const typename S::In* next, typename S::Out* __restrict c, std::int64_t ldc,
          bool accumulate, const typename S::In* __restrict bias) {
  using V = typename S::V;
  constexpr int K = S::kK, P = (R + 1) / 2;  // P: row pairs computed
  static_assert(kNextEvery % K == 0, "a line of `next` every whole number of groups");
  V acc[P][kColPairs];
#pragma GCC unroll 4
  for (int r = 0; r < P; ++r)
#pragma GCC unroll 6
    for (int j = 0; j < kColPairs; ++j) acc[r][j] = S::zero();
  // The tile of C is fetched while the last kPrefetchC steps run (microkernel.hpp).
  const std::int64_t c_at = kc > kPrefetchC ? kc - kPrefetchC : 0;
  const char* next_line = reinterpret_cast<const char*>(next);
  for (std::int64_t p = 0; p < kc; p += kNextEvery) {
    const std::int64_t steps = kc - p < kNextEvery ? kc - p : kNextEvery;
    // One line of the next panel into L2 every kNextEvery steps (PRFM PLDL2KEEP).
    if (next_line && steps == kNextEvery) {
      __builtin_prefetch(next_line, 0, 2);
      next_line += kLineBytes;
    }
    if (p <= c_at && c_at < p + kNextEvery)
      prefetch_c_tile(c, ldc, R, kNR * static_cast<std::int64_t>(sizeof(typename S::Out)));
    for (std::int64_t s = 0; s < steps; s += K) {
      typename S::VIn av[P];
#pragma GCC unroll 4
      for (int r = 0; r < P; ++r) av[r] = S::load_in(a + r * 2 * K);
#pragma GCC unroll 6
      for (int j = 0; j < kColPairs; ++j) {
        const typename S::VIn bv = S::load_in(b + j * 2 * K);
#pragma GCC unroll 4
        for (int r = 0; r < P; ++r) acc[r][j] = S::mmla(acc[r][j], av[r], bv);
      }
      a += kMR * K;
      b += kNR * K;
    }
  }
  // Row pair r's accumulators j, j + 1 hold columns 2j .. 2j + 3 of rows 2r (their low
  // halves) and 2r + 1 (their high halves).
  V bv[kColPairs / 2];
#pragma GCC unroll 3
  for (int t = 0; t < kColPairs / 2; ++t)
    if constexpr (kFinish != Finish::store)
      bv[t] = S::load_bias(bias + 4 * t);
    else
      bv[t] = S::zero();
#pragma GCC unroll 4
  for (int r = 0; r < P; ++r)
#pragma GCC unroll 3
    for (int t = 0; t < kColPairs / 2; ++t) {
      typename S::Out* lo = c + 2 * r * ldc + 4 * t;
      S::store(lo, finish<S, kFinish>(S::zip_lo(acc[r][2 * t], acc[r][2 * t + 1]), lo, accumulate,
                                      bv[t]));
      if (2 * r + 1 < R) {
        typename S::Out* hi = lo + ldc;
        S::store(hi, finish<S, kFinish>(S::zip_hi(acc[r][2 * t], acc[r][2 * t + 1]), hi, accumulate,
                                        bv[t]));
      }
    }
}

template <typename S, int R>
void kernel(std::int64_t kc, const typename S::In* a, const typename S::In* b,
            const typename S::In* next, typename S::Out* c, std::int64_t ldc, bool accumulate) {
  tile<S, R, Finish::store>(kc, a, b, next, c, ldc, accumulate, nullptr);
}

template <typename S, std::size_t... R>
constexpr auto row_kernels(std::index_sequence<R...>) {
  return std::array<MicroKernelFn<typename S::In, typename S::Out>, sizeof...(R)>{
      &kernel<S, static_cast<int>(R) + 1>...};
}

template <typename S>
void kernel_rows(int rows, std::int64_t kc, const typename S::In* a, const typename S::In* b,
                 const typename S::In* next, typename S::Out* c, std::int64_t ldc,
                 bool accumulate) {
  static constexpr auto kTable = row_kernels<S>(std::make_index_sequence<kMR - 1>());
  kTable[static_cast<std::size_t>(rows - 1)](kc, a, b, next, c, ldc, accumulate);
}

template <typename S>
void kernel_epilogue(std::int64_t kc, const typename S::In* a, const typename S::In* b,
                     const typename S::In* next, typename S::Out* c, std::int64_t ldc,
                     bool accumulate, const typename S::In* bias, ops::Activation act) {
  if (act == ops::Activation::relu)
    tile<S, kMR, Finish::relu>(kc, a, b, next, c, ldc, accumulate, bias);
  else
    tile<S, kMR, Finish::gelu_tanh>(kc, a, b, next, c, ldc, accumulate, bias);
}

// The MicroKernel: its own packing for A and B (pack_groups), k_block K.
template <typename S>
MicroKernel<typename S::In, typename S::Out> micro_kernel(
    const char* name, MicroKernelEpilogueFn<typename S::In, typename S::Out> epilogue) {
  MicroKernel<typename S::In, typename S::Out> uk{name,
                                                  kMR,
                                                  kNR,
                                                  &kernel<S, kMR>,
                                                  &kernel_rows<S>,
                                                  epilogue,
                                                  &pack_groups<typename S::In, S::kK>};
  uk.k_block = S::kK;
  return uk;
}

}  // namespace mmla

}  // namespace
}  // namespace ridgeline::packed
