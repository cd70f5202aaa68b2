#pragma once
// Device-side pieces the memory-bound kernels and the GEMM epilogue share: f32 arithmetic on
// f32 or bf16 storage, 16-byte packs, block reductions, and the activations (the formulas
// of kernels/src/ops/activation.hpp, in f32; gelu_tanh through a fast exponential).
#include <cuda_bf16.h>

#include <cmath>

namespace ridgeline::cuda {

using Index = long long;

__device__ __forceinline__ float to_f(float v) {
  return v;
}
__device__ __forceinline__ float to_f(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <typename T>
__device__ __forceinline__ T from_f(float v);
template <>
__device__ __forceinline__ float from_f<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) {
  return __float2bfloat16(v);  // round to nearest even, as the CPU kernels store
}

// V elements of T moved as one access (V = 1, or 16 bytes' worth).
template <typename T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};
template <typename T, int V>
__device__ __forceinline__ void load(const T* p, float (&out)[V]) {
  const Pack<T, V> pack = *reinterpret_cast<const Pack<T, V>*>(p);
#pragma unroll
  for (int i = 0; i < V; ++i) out[i] = to_f(pack.v[i]);
}
template <typename T, int V>
__device__ __forceinline__ void store(T* p, const float (&in)[V]) {
  Pack<T, V> pack;
#pragma unroll
  for (int i = 0; i < V; ++i) pack.v[i] = from_f<T>(in[i]);
  *reinterpret_cast<Pack<T, V>*>(p) = pack;
}

struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

__device__ __forceinline__ float shfl_xor(float v, int offset) {
  return __shfl_xor_sync(0xffffffffu, v, offset);
}

// The whole block's combination of every thread's v, returned to every thread (blockDim.x a
// multiple of 32): a warp's butterfly, then warp 0's over the warps' results. S is a float
// or a struct of floats with a shfl_xor overload (found by argument-dependent lookup);
// `combine` is associative and commutative, `identity` its neutral element.
template <typename S, typename Combine>
__device__ S block_combine(S v, Combine combine, S identity) {
  __shared__ S part[32];
  __shared__ S result;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warps = static_cast<int>(blockDim.x) / 32;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = combine(v, shfl_xor(v, o));
  __syncthreads();  // an earlier reduction's readers are done with part and result
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? part[lane] : identity;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = combine(v, shfl_xor(v, o));
    if (lane == 0) result = v;
  }
  __syncthreads();
  return result;
}

template <typename Op>
__device__ float block_reduce(float v, Op op, float identity) {
  return block_combine(v, op, identity);
}

enum class Act { relu = 0, gelu_tanh = 1 };

// relu: max(x, 0); gelu_tanh: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
// computed as the same function x / (1 + e^(-2u)) (0.5 (1 + tanh u) is the logistic of 2u):
// one hardware exponential and one fast division instead of tanhf's two branches, the
// epilogue's cost in a short GEMM. __expf is off by 2 + 1.16 |2u| units in the last place,
// which matters only where e^(-2u) is large and the result x / (1 + e^(-2u)) is small
// against |x|: the error stays under 2^-20 |x|, and |x| is at most the entry's scale.
template <Act A>
__device__ __forceinline__ float activate(float x) {
  if constexpr (A == Act::relu) {
    return fmaxf(x, 0.0f);
  } else {
    constexpr float kSqrt2OverPi = 0.7978845608028654f;
    const float u = kSqrt2OverPi * (x + 0.044715f * x * x * x);
    return __fdividef(x, 1.0f + __expf(-2.0f * u));  // 1 + e^88 and beyond: x * 0
  }
}

}  // namespace ridgeline::cuda
