// AVX-512 micro-kernels: 6 rows x 4 zmm columns of accumulators (24 of the 32 zmm
// registers), 4 loads of B and 6 broadcasts of A per rank-1 update; the f32 one also with
// the gemm_bias_act epilogue, and that epilogue's passes for the unfused kernel. A wide
// tile reads few bytes of A per FMA: A's panels stream from L3 while B's panel sits in L2
// (packed_blocking.cpp), and on two threads that stream is what both cores share. On the
// Zen 5 VM the 14 x 2 zmm tile (twice A's bytes per FMA) ran 3-7% slower on two threads
// (f64), 1-5% on one, f32 1-4% (docs/ladder-performance.md). The bf16 one is in
// microkernel_avx512_bf16.cpp (it needs AVX512_BF16). The traits are the row-wise ops'
// (simd_avx512.hpp).
#include "../ops/simd_avx512.hpp"
#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {
using F32 = FmaInputs<ops::F32x16>;
using F64 = FmaInputs<ops::F64x8>;
}  // namespace

MicroKernel<float> microkernel_f32_avx512() {
  return {"gemm_f32_avx512_6x64",
          6,
          64,
          &kernel<F32, 6, 4>,
          &kernel_rows<F32, 6, 4>,
          &kernel_epilogue<F32, 6, 4>,
          &pack_panel_avx512<float>};
}
MicroKernel<double> microkernel_f64_avx512() {
  return {"gemm_f64_avx512_6x32",    6, 32, &kernel<F64, 6, 4>, &kernel_rows<F64, 6, 4>, nullptr,
          &pack_panel_avx512<double>};
}
// For products whose n fits 2 zmm (n <= 32 f32, 16 f64), where 4 zmm columns would leave
// half the FMAs on padding: 12 rows x 2 zmm (24 accumulators again), 2 loads of B and 12
// broadcasts of A per update. No epilogue (the einsum GEMMs have none).
MicroKernel<float> microkernel_f32_avx512_narrow() {
  return {"gemm_f32_avx512_12x32",  12, 32, &kernel<F32, 12, 2>, &kernel_rows<F32, 12, 2>, nullptr,
          &pack_panel_avx512<float>};
}
MicroKernel<double> microkernel_f64_avx512_narrow() {
  return {"gemm_f64_avx512_12x16",   12, 16, &kernel<F64, 12, 2>, &kernel_rows<F64, 12, 2>, nullptr,
          &pack_panel_avx512<double>};
}
EpiloguePasses<float> epilogue_passes_avx512() {
  return {&add_bias_rows<F32>, &activate_pass<F32>};
}

}  // namespace ridgeline::packed
