// AArch64 NEON micro-kernels (baseline: no ISA flags), BLIS's armv8a shapes: f32 8 rows x 3
// vectors of columns (8 x 12), f64 6 rows x 4 vectors (6 x 8); 24 accumulators of the 32
// vector registers, the rest for B's vectors and A's entries (GCC loads each as a scalar and
// multiplies by element, FMLA v.4s, v.4s, v.s[0]: the broadcast costs no instruction). Without
// GCC's first scheduling pass (kernels/CMakeLists.txt), which spilled accumulators. The f32
// one also with the gemm_bias_act epilogue, and that epilogue's passes. The traits are the
// row-wise ops' (simd_neon.hpp). Shapes chosen by register count, not yet measured on an Arm
// core.
#include "../ops/simd_neon.hpp"
#include "microkernel.hpp"
#include "microkernel_body.hpp"
#include "panel_packing.hpp"

namespace ridgeline::packed {

namespace {

using F32 = FmaInputs<ops::F32x4>;
using F64 = FmaInputs<ops::F64x2>;

}  // namespace

MicroKernel<float> microkernel_f32_neon() {
  return {"gemm_f32_neon_8x12",
          8,
          12,
          &kernel<F32, 8, 3>,
          &kernel_rows<F32, 8, 3>,
          &kernel_epilogue<F32, 8, 3>,
          &pack_panel<float>};
}
MicroKernel<double> microkernel_f64_neon() {
  return {"gemm_f64_neon_6x8", 6, 8, &kernel<F64, 6, 4>, &kernel_rows<F64, 6, 4>, nullptr,
          &pack_panel<double>};
}
EpiloguePasses<float> epilogue_passes_neon() {
  return {&add_bias_rows<F32>, &activate_pass<F32>};
}

}  // namespace ridgeline::packed
