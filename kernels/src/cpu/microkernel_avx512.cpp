// AVX-512 micro-kernels: 14 rows x 2 zmm columns of accumulators (28 of the 32 zmm
// registers), 2 loads of B and 14 broadcasts of A per rank-1 update; the f32 one also with
// the gemm_bias_act epilogue, and that epilogue's passes for the unfused kernel. The bf16
// one is in microkernel_avx512_bf16.cpp (it needs AVX512_BF16). The traits are the row-wise
// ops' (simd_avx512.hpp).
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
  return {"gemm_f32_avx512_14x32",
          14,
          32,
          &kernel<F32, 14, 2>,
          &kernel_rows<F32, 14, 2>,
          &kernel_epilogue<F32, 14, 2>,
          &pack_panel_avx512<float>};
}
MicroKernel<double> microkernel_f64_avx512() {
  return {"gemm_f64_avx512_14x16",   14, 16, &kernel<F64, 14, 2>, &kernel_rows<F64, 14, 2>, nullptr,
          &pack_panel_avx512<double>};
}
EpiloguePasses<float> epilogue_passes_avx512() {
  return {&add_bias_rows<F32>, &activate_pass<F32>};
}

}  // namespace ridgeline::packed
