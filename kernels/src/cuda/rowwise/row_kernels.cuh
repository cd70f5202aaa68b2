#pragma once
// What the memory-bound ops' kernel files share (rowwise_fused.cu, rowwise_unfused.cu): the
// block size, the eltwise chain's steps, the grid-stride chain kernel both forms launch, and
// the dispatch from a DType and row length to the storage type and access width.
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "../cuda_check.hpp"
#include "../device_math.cuh"
#include "ridgeline/core/ops/eltwise_chain.hpp"
#include "row_statistics.hpp"
#include "rowwise_launchers.hpp"

namespace ridgeline::rows {

using cuda::Index;
using cuda::load;
using cuda::store;
constexpr int kThreads = 256;
constexpr float kNegInf = -INFINITY;

// Step i of the chain (core/ops/eltwise_chain.hpp), i % 4 deciding which.
__device__ __forceinline__ float chain_step(float v, int step) {
  switch (step & 3) {
    case 0:
      return fmaf(v, kChainScale0, kChainShift0);
    case 1:
      return fmaxf(v, 0.0f);
    case 2:
      return v * kChainScale2;
    default:
      return fmaf(v, kChainScale3, kChainShift3);
  }
}

__device__ __forceinline__ float chain(float v, int first, int last) {
  int i = first;
  for (; i < last && (i & 3); ++i) v = chain_step(v, i);
  for (; i + 4 <= last; i += 4)  // whole cycles, each step's kind known at compile time
    v = fmaf(fmaxf(fmaf(v, kChainScale0, kChainShift0), 0.0f) * kChainScale2, kChainScale3,
             kChainShift3);
  for (; i < last; ++i) v = chain_step(v, i);
  return v;
}

// Steps [first, last) of the chain over n elements, grid-stride, V per access, the tail of
// n % V one element per thread. Fused: [0, L); unfused: one step per launch.
template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    chain_steps(const T* x, T* y, Index n, int first, int last) {
  const Index vectors = n / V;
  const Index stride = static_cast<Index>(gridDim.x) * kThreads;
  const Index t = static_cast<Index>(blockIdx.x) * kThreads + threadIdx.x;
  for (Index i = t; i < vectors; i += stride) {
    float v[V];
    load<T, V>(x + i * V, v);
#pragma unroll
    for (int j = 0; j < V; ++j) v[j] = chain(v[j], first, last);
    store<T, V>(y + i * V, v);
  }
  for (Index i = vectors * V + t; i < n; i += stride) {
    float v[1];
    load<T, 1>(x + i, v);
    v[0] = chain(v[0], first, last);
    store<T, 1>(y + i, v);
  }
}

__device__ __forceinline__ MaxSum shfl_xor(MaxSum v, int offset) {
  return {cuda::shfl_xor(v.m, offset), cuda::shfl_xor(v.s, offset)};
}
__device__ __forceinline__ MeanM2 shfl_xor(MeanM2 v, int offset) {
  return {cuda::shfl_xor(v.n, offset), cuda::shfl_xor(v.mean, offset),
          cuda::shfl_xor(v.m2, offset)};
}

// The block's statistics of a row from every thread's part, returned to every thread.
template <typename S>
__device__ __forceinline__ S block_statistics(S mine) {
  return cuda::block_combine(
      mine, [](S a, S b) { return combine(a, b); }, S::empty());
}

inline unsigned row_blocks(std::int64_t rows) {
  return static_cast<unsigned>(rows);
}

// Enough blocks of a grid-stride kernel to fill any current GPU several times over.
inline unsigned stride_blocks(std::int64_t work) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((work + kThreads - 1) / kThreads, 1, 8192));
}

template <typename T, int V>
struct Access {
  using type = T;
  static constexpr int width = V;
};

// Calls f(Access<T, V>{}) with the storage type and the widest access the row length allows
// (16 bytes when cols is a multiple of the pack).
template <typename F>
void with_type_and_width(DType dtype, std::int64_t cols, F&& f) {
  if (dtype == DType::bf16) {
    if (cols % 8 == 0)
      f(Access<__nv_bfloat16, 8>{});
    else
      f(Access<__nv_bfloat16, 1>{});
  } else {
    if (cols % 4 == 0)
      f(Access<float, 4>{});
    else
      f(Access<float, 1>{});
  }
}

template <typename T>
const T* as(const void* p) {
  return static_cast<const T*>(p);
}
template <typename T>
T* as(void* p) {
  return static_cast<T*>(p);
}

// Steps [first, last) of the chain from `in` into r.y.
inline void chain_launch(const DeviceRows& r, int first, int last, const void* in, cudaStream_t s) {
  with_type_and_width(r.dtype, r.cols, [&](auto access) {
    using T = typename decltype(access)::type;
    constexpr int V = decltype(access)::width;
    chain_steps<T, V>
        <<<stride_blocks(r.cols / V), kThreads, 0, s>>>(as<T>(in), as<T>(r.y), r.cols, first, last);
  });
  cuda_check_launch("chain_steps");
}

}  // namespace ridgeline::rows
