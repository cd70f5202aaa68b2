#pragma once
// The micro-kernel contract of the packed rung (BLIS-style):
//   C[0:MR, 0:NR] (row-major, row stride ldc) := (accumulate ? C : 0) + A_panel * B_panel
// where A_panel holds kc columns of MR entries (a[p*MR + i]) and B_panel holds kc rows of
// NR entries (b[p*NR + j]), both packed contiguously and 64-byte aligned. The driver
// zero-pads partial panels and routes edge tiles through a scratch MR x NR tile.
//
// `next` (BLIS's next-panel hint) is where the driver wants kc / kNextEvery cache lines brought
// into L2 while the call runs, one every kNextEvery k steps; nullptr for none. The driver spreads
// the next B panel over the calls on this one: that panel comes from memory, and its first
// call waited on it (1.8-2x a call's time, f64 n = 4096 on the Zen 5 VM; with the hint that
// GEMM ran 1.4-2.8% faster on 1 thread, 1.8-3.5% on 2; f32 on 2 threads, whose B block is
// half the size, -1% to +0.5%). A hint changes no result.
//
// bf16 (raw bits, std::uint16_t; C in f32) packs k in pairs, the layout vdpbf16ps takes:
// a[(p/2)*MR*2 + i*2 + p%2], so A[i][p], A[i][p+1] is one 32-bit broadcast, and
// b[(p/2)*NR*2 + j*2 + p%2], so one zmm holds 16 columns of two k steps. kc is even (the
// driver pads an odd kc with a zero step). kGroup<In> is that group size (1: no groups).
// int8 (C in i32) packs k in quads the same way, the order vpdpbusd and TDPBSSD take.
//
// The epilogue variant (gemm_bias_act: f32, or bf16 with a bf16 bias) is the same product
// with the bias and the activation applied to the register tile before it is stored:
//   C[i][j] := act((accumulate ? C[i][j] : 0) + (A_panel * B_panel)[i][j] + bias[j])
// with bias[0:NR] readable (the driver passes a zero-padded copy for edge tiles). The
// driver calls it only for the last kc block, when the tile holds the whole dot product.
//
// Micro-kernels live in their own translation units, compiled for their ISA, and use
// nothing but intrinsics there, so no inline function compiled for a wider ISA leaks
// into the rest of the program.
#include <cstdint>
#include <type_traits>

#include "../ops/activation.hpp"

namespace ridgeline::packed {

// k steps per line of `next` requested (a multiple of every kGroup), and a line's bytes.
inline constexpr std::int64_t kNextEvery = 16;
inline constexpr std::int64_t kLineBytes = 64;

// The tile of C a micro-kernel stores is requested into L1 while its last kPrefetchC k steps
// run: C's rows lie ldc apart, and fetched only by the store they stall it once per kc steps.
// Every line a row touches: each 64-byte line's start and the row's last byte (a row need
// not start on a line). Always inlined into each ISA's micro-kernel, which is what keeps a
// copy compiled for one ISA from serving another.
inline constexpr std::int64_t kPrefetchC = 64;
template <typename T>
[[gnu::always_inline]] inline void prefetch_c_tile(const T* c, std::int64_t ldc, int rows,
                                                   std::int64_t row_bytes) {
#pragma GCC unroll 32
  for (int i = 0; i < rows; ++i) {
    const char* row = reinterpret_cast<const char*>(c + i * ldc);
#pragma GCC unroll 8
    for (std::int64_t off = 0; off < row_bytes; off += kLineBytes)
      __builtin_prefetch(row + off, 0, 3);
    __builtin_prefetch(row + row_bytes - 1, 0, 3);
  }
}

// k steps per packed group: pairs for bf16 (std::uint16_t bits), quads for int8 (the VNNI
// order vpdpbusd and TDPBSSD take), else 1.
template <typename In>
inline constexpr int kGroup = std::is_same_v<In, std::uint16_t> ? 2
                              : std::is_same_v<In, std::int8_t> ? 4
                                                                : 1;

// In: A's, B's and the bias's element; Out: C's (f32 for bf16 inputs).
template <typename In, typename Out = In>
using MicroKernelFn = void (*)(std::int64_t kc, const In* a, const In* b, const In* next, Out* c,
                               std::int64_t ldc, bool accumulate);
// The product for the first `rows` (1 to MR - 1) rows of an A panel packed MR rows wide,
// stored to those rows of C only.
template <typename In, typename Out = In>
using MicroKernelRowsFn = void (*)(int rows, std::int64_t kc, const In* a, const In* b,
                                   const In* next, Out* c, std::int64_t ldc, bool accumulate);
template <typename In, typename Out = In>
using MicroKernelEpilogueFn = void (*)(std::int64_t kc, const In* a, const In* b, const In* next,
                                       Out* c, std::int64_t ldc, bool accumulate, const In* bias,
                                       ops::Activation act);

// Packs one panel of A or B in the layout the micro-kernel reads (panel_packing.hpp).
template <typename In>
using PackPanelFn = void (*)(const In* src, std::int64_t lane_stride, std::int64_t k_stride,
                             std::int64_t lanes, std::int64_t kc, int width, In* out);

template <typename In, typename Out = In>
struct MicroKernel {
  const char* name;  // gemm_<dtype>_<isa>_<MR>x<NR>
  int mr;
  int nr;
  MicroKernelFn<In, Out> fn;
  MicroKernelRowsFn<In, Out> rows;          // the last panel's rows where m % MR != 0
  MicroKernelEpilogueFn<In, Out> epilogue;  // nullptr where there is none (f64)
  PackPanelFn<In> pack;                     // pack_panel, or bf16's AVX-512 packing
  // A matrix engine's kernel (amx_microkernel.hpp) differs in three ways, each defaulted here
  // for the vector kernels: its A panels have a layout of their own (pack_a; nullptr: `pack`);
  // the packed depth is a multiple of its tiles' k (k_block; the driver pads kc with zero
  // steps and keeps its kc blocks multiples of it); and its registers are set up and
  // released once per thread and run (begin and end, called by each thread of the driver
  // around its share; nullptr: nothing to do).
  PackPanelFn<In> pack_a = nullptr;
  int k_block = kGroup<In>;
  void (*begin)() = nullptr;
  void (*end)() = nullptr;
  // Entries of In that `pack` writes past a B panel's kp * NR (kp: its padded depth), which
  // the micro-kernel reads there (the i8 VNNI kernel's sign correction, NR i32 per panel);
  // the driver spaces B's panels by that much more. A multiple of 64 bytes: panels stay
  // aligned.
  int b_tail = 0;
  // A tile engine's kernel (AMX): blocked with derive_tile_blocking (packed_gemm.hpp), its
  // panels kept nearer than the vector kernels' are. Not BFMMLA's or SMMLA's, whose longer
  // k blocks are still vector registers.
  bool tile_engine = false;
};

MicroKernel<float> microkernel_f32_avx512();
MicroKernel<double> microkernel_f64_avx512();
// 12 x 2 zmm, for products no wider than that (n <= 32 f32, 16 f64); no epilogue.
MicroKernel<float> microkernel_f32_avx512_narrow();
MicroKernel<double> microkernel_f64_avx512_narrow();
MicroKernel<float> microkernel_f32_avx2();
MicroKernel<double> microkernel_f64_avx2();
// Needs AVX512_BF16 (vdpbf16ps) besides AVX-512; the caller checks CPUID.
MicroKernel<std::uint16_t, float> microkernel_bf16_avx512();
// Needs AVX512_VNNI (vpdpbusd) besides AVX-512; the caller checks CPUID. Its own A packing
// (A's bytes offset to unsigned) and a B tail (microkernel_avx512_vnni.cpp).
MicroKernel<std::int8_t, std::int32_t> microkernel_i8_avx512();
// AMX (amx_microkernel.hpp): 32 x 32 blocks of C in tiles; bf16 with the gemm_bias_act
// epilogue, int8 into i32 without one. On the instructions, which need AMX-BF16 or AMX-INT8
// usable (amx_support(); the caller checks), and on the tile model, which runs anywhere.
inline constexpr int amx_gemm_mr = 32, amx_gemm_nr = 32;
MicroKernel<std::uint16_t, float> microkernel_bf16_amx();
MicroKernel<std::int8_t, std::int32_t> microkernel_i8_amx();
MicroKernel<std::uint16_t, float> microkernel_bf16_amx_model();
MicroKernel<std::int8_t, std::int32_t> microkernel_i8_amx_model();
// AArch64. NEON is the baseline: 8 x 12 f32 (with the epilogue), 6 x 8 f64.
MicroKernel<float> microkernel_f32_neon();
MicroKernel<double> microkernel_f64_neon();
// SVE, vector-length agnostic (one build, any vector length); needs HWCAP_SVE: the caller checks.
MicroKernel<float> microkernel_f32_sve();
MicroKernel<double> microkernel_f64_sve();
// Needs HWCAP2_BF16 (BFMMLA); the caller checks.
MicroKernel<std::uint16_t, float> microkernel_bf16_bfmmla();
// Needs HWCAP2_I8MM (SMMLA); the caller checks.
MicroKernel<std::int8_t, std::int32_t> microkernel_i8_smmla();

// The epilogue's bias and activation as separate passes through memory, for the unfused
// gemm_bias_act (the same vector code as the epilogue, so a fused/unfused comparison
// measures the passes, not the arithmetic). The caller parallelises over calls. C is f32;
// the bias is Bias (f32, or bf16 bits widened as they are read).
template <typename Bias>
struct EpiloguePasses {
  // c[i][j] += bias[j] for rows x n row-major c (row stride n)
  void (*add_bias)(float* c, const Bias* bias, std::int64_t rows, std::int64_t n);
  // c[i] = act(c[i]) for count contiguous elements
  void (*activate)(float* c, std::int64_t count, ops::Activation act);
};

EpiloguePasses<float> epilogue_passes_avx512();
EpiloguePasses<float> epilogue_passes_avx2();
EpiloguePasses<std::uint16_t> epilogue_passes_bf16_avx512();  // needs AVX512_BF16 too
EpiloguePasses<std::uint16_t> epilogue_passes_bf16_neon();    // plain NEON; beside BFMMLA
EpiloguePasses<float> epilogue_passes_neon();

}  // namespace ridgeline::packed
