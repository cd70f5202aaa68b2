// The i8 AVX-512 micro-kernel (AVX512_VNNI): signed int8 A and B, i32 C, on vpdpbusd. The bf16
// kernel's 14 x 32 tile: 28 zmm accumulators, each 16 columns of C; per quad of k steps 2 loads
// of B (16 columns x 4 k each) and 14 32-bit broadcasts of A[i][p..p+3]. One vpdpbusd is 64
// multiply-adds.
//
// vpdpbusd multiplies unsigned bytes (its first source) by signed ones. A, the broadcast, is
// made unsigned by adding 128 (xor 0x80), so the kernel sums (A + 128) B = A B + 128 sum_k B,
// and its accumulators start at -128 times B's column sums instead of zero. Offsetting A, not
// B, makes the correction a function of the column alone: one vector per zmm column of the
// tile, loaded once per call, and nothing added to the loop (summing B in the micro-kernel, a
// vpdpbusd of ones by each load of B, would add 1 / MR, 7%, to the loop's vpdpbusd; an xor per
// broadcast 14 instructions to its 28). Both costs are paid once per packed panel instead: the
// xor in A's packing (each A panel serves nc / NR calls), the sums in B's (each B panel serves
// mc / MR calls), stored in the panel's tail (microkernel.hpp, b_tail).
//
// Exact: vpdpbusd is the wrapping form (vpdpbusds saturates), and so is every i32 add here, so
// C is the true sum modulo 2^32, whatever the offset partial sums do on the way: the true sum
// wherever it fits in i32. A product is at most 2^14 in magnitude (-128 x -128), so any inputs
// are exact for k < 2^17 = 131072; past that a sum can wrap, as in any i32 accumulator
// (TDPBSSD's, oneDNN's). The validation's reference sums in double, exact there, with a
// tolerance that an entry off by one exceeds.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

constexpr int kVnniMr = 14, kVnniNv = 2, kVnniNr = 16 * kVnniNv;

// C's side (i32) and the packed operands' (int8 quads, microkernel.hpp gives the layout).
struct I8Quads {
  using T = std::int32_t;
  using V = __m512i;
  static constexpr int kLanes = 16;
  static V set1(T x) { return _mm512_set1_epi32(x); }
  static V load(const T* p) { return _mm512_loadu_si512(p); }
  static void store(T* p, V v) { _mm512_storeu_si512(p, v); }
  static V add(V a, V b) { return _mm512_add_epi32(a, b); }

  using In = std::int8_t;
  using VIn = __m512i;
  static constexpr int kK = 4;
  static VIn load_in(const In* p) { return _mm512_load_si512(p); }
  static VIn broadcast_in(const In* p) {
    std::int32_t quad;
    std::memcpy(&quad, p, sizeof quad);
    return _mm512_set1_epi32(quad);
  }
  // a: A + 128 (unsigned), b: B (signed).
  static V dot(VIn a, VIn b, V acc) { return _mm512_dpbusd_epi32(acc, a, b); }
  // -128 x the column sums of the panel, which its tail holds.
  static V start(const In* tail, int v) { return _mm512_load_si512(tail + v * 64); }
};

std::int64_t padded_depth(std::int64_t kc) {
  return (kc + I8Quads::kK - 1) / I8Quads::kK * I8Quads::kK;
}

// A's panel with each byte's top bit flipped: A + 128 as unsigned bytes (padding too, which
// B's zero padding multiplies).
void pack_a_i8_vnni(const std::int8_t* src, std::int64_t lane_stride, std::int64_t k_stride,
                    std::int64_t lanes, std::int64_t kc, int width, std::int8_t* out) {
  pack_panel_i8_avx512(src, lane_stride, k_stride, lanes, kc, width, out);
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  const std::int64_t bytes = padded_depth(kc) * width;
  std::int64_t i = 0;
  for (; i + 64 <= bytes; i += 64)
    _mm512_storeu_si512(out + i, _mm512_xor_si512(_mm512_loadu_si512(out + i), flip));
  if (i < bytes) {
    const __mmask64 rest = (std::uint64_t{1} << (bytes - i)) - 1u;
    _mm512_mask_storeu_epi8(out + i, rest,
                            _mm512_xor_si512(_mm512_maskz_loadu_epi8(rest, out + i), flip));
  }
}

// B's panel (width is NR: the driver packs B kVnniNr columns wide), then its tail: -128 x each
// column's sum over the panel's steps, the sums of four by vpdpbusd of ones, two chains per zmm
// column to hide its latency.
void pack_b_i8_vnni(const std::int8_t* src, std::int64_t lane_stride, std::int64_t k_stride,
                    std::int64_t lanes, std::int64_t kc, int width, std::int8_t* out) {
  pack_panel_i8_avx512(src, lane_stride, k_stride, lanes, kc, width, out);
  constexpr int kChains = 2, kQuadBytes = kVnniNr * I8Quads::kK;
  const std::int64_t quads = padded_depth(kc) / I8Quads::kK;
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i sum[kChains][kVnniNv];
  for (auto& chain : sum)
    for (__m512i& s : chain) s = _mm512_setzero_si512();
  const auto add_quad = [&](std::int64_t q, int chain) {
    for (int v = 0; v < kVnniNv; ++v)
      sum[chain][v] = _mm512_dpbusd_epi32(sum[chain][v], ones,
                                          _mm512_load_si512(out + q * kQuadBytes + v * 64));
  };
  std::int64_t q = 0;
  for (; q + kChains <= quads; q += kChains)
    for (int chain = 0; chain < kChains; ++chain) add_quad(q + chain, chain);
  for (; q < quads; ++q) add_quad(q, 0);
  std::int8_t* tail = out + quads * kQuadBytes;
  const __m512i minus128 = _mm512_set1_epi32(-128);
  for (int v = 0; v < kVnniNv; ++v)
    _mm512_store_si512(tail + v * 64,
                       _mm512_mullo_epi32(_mm512_add_epi32(sum[0][v], sum[1][v]), minus128));
}

}  // namespace

MicroKernel<std::int8_t, std::int32_t> microkernel_i8_avx512() {
  MicroKernel<std::int8_t, std::int32_t> uk{"gemm_i8_avx512_14x32",
                                            kVnniMr,
                                            kVnniNr,
                                            &kernel<I8Quads, kVnniMr, kVnniNv>,
                                            &kernel_rows<I8Quads, kVnniMr, kVnniNv>,
                                            nullptr,
                                            &pack_b_i8_vnni};
  uk.pack_a = &pack_a_i8_vnni;
  uk.b_tail = kVnniNr * static_cast<int>(sizeof(std::int32_t));
  return uk;
}

}  // namespace ridgeline::packed
