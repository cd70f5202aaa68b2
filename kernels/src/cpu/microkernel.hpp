#pragma once
// The micro-kernel contract of the packed rung (BLIS-style):
//   C[0:MR, 0:NR] (row-major, row stride ldc) := (accumulate ? C : 0) + A_panel * B_panel
// where A_panel holds kc columns of MR entries (a[p*MR + i]) and B_panel holds kc rows of
// NR entries (b[p*NR + j]), both packed contiguously and 64-byte aligned. The driver
// zero-pads partial panels and routes edge tiles through a scratch MR x NR tile.
//
// The epilogue variant (gemm_bias_act, f32) is the same product with the bias and the
// activation applied to the register tile before it is stored:
//   C[i][j] := act((accumulate ? C[i][j] : 0) + (A_panel * B_panel)[i][j] + bias[j])
// with bias[0:NR] readable (the driver passes a zero-padded copy for edge tiles). The
// driver calls it only for the last kc block, when the tile holds the whole dot product.
//
// Micro-kernels live in their own translation units, compiled for their ISA, and use
// nothing but intrinsics there, so no inline function compiled for a wider ISA leaks
// into the rest of the program.
#include <cstdint>

#include "../ops/activation.hpp"

namespace ridgeline::packed {

template <typename T>
using MicroKernelFn = void (*)(std::int64_t kc, const T* a, const T* b, T* c, std::int64_t ldc,
                               bool accumulate);
template <typename T>
using MicroKernelEpilogueFn = void (*)(std::int64_t kc, const T* a, const T* b, T* c,
                                       std::int64_t ldc, bool accumulate, const T* bias,
                                       ops::Activation act);

template <typename T>
struct MicroKernel {
  const char* name;  // gemm_<dtype>_<isa>_<MR>x<NR>
  int mr;
  int nr;
  MicroKernelFn<T> fn;
  MicroKernelEpilogueFn<T> epilogue;  // nullptr where there is none (f64)
};

MicroKernel<float> microkernel_f32_avx512();
MicroKernel<double> microkernel_f64_avx512();
MicroKernel<float> microkernel_f32_avx2();
MicroKernel<double> microkernel_f64_avx2();

// The epilogue's bias and activation as separate passes through memory, for the unfused
// gemm_bias_act (the same vector code as the epilogue, so a fused/unfused comparison
// measures the passes, not the arithmetic). The caller parallelises over calls.
struct EpiloguePasses {
  // c[i][j] += bias[j] for rows x n row-major c (row stride n)
  void (*add_bias)(float* c, const float* bias, std::int64_t rows, std::int64_t n);
  // c[i] = act(c[i]) for count contiguous elements
  void (*activate)(float* c, std::int64_t count, ops::Activation act);
};

EpiloguePasses epilogue_passes_avx512();
EpiloguePasses epilogue_passes_avx2();

}  // namespace ridgeline::packed
