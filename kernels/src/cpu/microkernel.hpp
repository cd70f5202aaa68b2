#pragma once
// The micro-kernel contract of the packed rung (BLIS-style):
//   C[0:MR, 0:NR] (row-major, row stride ldc) := (accumulate ? C : 0) + A_panel * B_panel
// where A_panel holds kc columns of MR entries (a[p*MR + i]) and B_panel holds kc rows of
// NR entries (b[p*NR + j]), both packed contiguously and 64-byte aligned. The driver
// zero-pads partial panels and routes edge tiles through a scratch MR x NR tile.
// Micro-kernels live in their own translation units, compiled for their ISA, and use
// nothing but intrinsics there, so no inline function compiled for a wider ISA leaks
// into the rest of the program.
#include <cstdint>

namespace ridgeline::packed {

template <typename T>
using MicroKernelFn = void (*)(std::int64_t kc, const T* a, const T* b, T* c, std::int64_t ldc,
                               bool accumulate);

template <typename T>
struct MicroKernel {
  const char* name;  // gemm_<dtype>_<isa>_<MR>x<NR>
  int mr;
  int nr;
  MicroKernelFn<T> fn;
};

MicroKernel<float> microkernel_f32_avx512();
MicroKernel<double> microkernel_f64_avx512();
MicroKernel<float> microkernel_f32_avx2();
MicroKernel<double> microkernel_f64_avx2();

}  // namespace ridgeline::packed
