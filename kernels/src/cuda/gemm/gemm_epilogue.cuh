#pragma once
// gemm_bias_act's epilogue on a GEMM kernel's accumulators: what the one store of C applies
// to a pair of neighbouring values at (row, col) and (row, col + 1). One definition for the
// mma.sync and wgmma kernels, whose accumulator fragments both come in such pairs.
#include "../device_math.cuh"
#include "device_gemm.hpp"

namespace ridgeline {

// With the two columns' bias at hand (a kernel that staged it).
template <Epilogue EPI>
__device__ __forceinline__ float2 gemm_epilogue_biased(float v0, float v1, float2 b) {
  if constexpr (EPI == Epilogue::none) {
    return make_float2(v0, v1);
  } else {
    constexpr cuda::Act act = EPI == Epilogue::bias_relu ? cuda::Act::relu : cuda::Act::gelu_tanh;
    return make_float2(cuda::activate<act>(v0 + b.x), cuda::activate<act>(v1 + b.y));
  }
}

template <Epilogue EPI, typename T>
__device__ __forceinline__ float2 gemm_epilogue(float v0, float v1, const T* bias, long long col) {
  if constexpr (EPI == Epilogue::none)
    return make_float2(v0, v1);
  else
    return gemm_epilogue_biased<EPI>(v0, v1,
                                     make_float2(cuda::to_f(bias[col]), cuda::to_f(bias[col + 1])));
}

}  // namespace ridgeline
