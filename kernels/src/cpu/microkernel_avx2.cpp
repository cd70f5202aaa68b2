// AVX2 micro-kernels: 6 rows x 2 ymm columns of accumulators (12 of the 16 ymm
// registers), 2 loads of B and 6 broadcasts of A per rank-1 update (the BLIS haswell shape);
// the f32 one also with the gemm_bias_act epilogue, and that epilogue's passes. The traits are
// the row-wise ops' (simd_avx2.hpp).
#include "../ops/simd_avx2.hpp"
#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

using F32 = FmaInputs<ops::F32x8>;
using F64 = FmaInputs<ops::F64x4>;

}  // namespace

MicroKernel<float> microkernel_f32_avx2() {
  return {"gemm_f32_avx2_6x16",
          6,
          16,
          &kernel<F32, 6, 2>,
          &kernel_rows<F32, 6, 2>,
          &kernel_epilogue<F32, 6, 2>,
          &pack_panel<float>};
}
MicroKernel<double> microkernel_f64_avx2() {
  return {"gemm_f64_avx2_6x8", 6, 8, &kernel<F64, 6, 2>, &kernel_rows<F64, 6, 2>, nullptr,
          &pack_panel<double>};
}
EpiloguePasses<float> epilogue_passes_avx2() {
  return {&add_bias_rows<F32>, &activate_pass<F32>};
}

}  // namespace ridgeline::packed
