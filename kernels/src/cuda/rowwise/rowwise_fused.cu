// The memory-bound ops fused, one kernel each (rowwise_launchers.hpp): softmax, layernorm
// and rmsnorm one block of 256 threads per row, 16-byte accesses where the row length allows
// (V elements each), reductions in f32 by warp shuffles, then across warps. Rows of up to
// 256 x V x 4 elements are held in registers and read from device memory once; longer rows
// are streamed twice, the second time from L1/L2, where the block read them a moment before.
#include <type_traits>

#include "row_kernels.cuh"

namespace ridgeline {

namespace {

using namespace rows;

// --- fused, longer rows: streamed twice ----------------------------------------------

// Online max and sum per thread (rescaled when the max grows), then the block's (max, sum)
// in one reduction (row_statistics.hpp); second pass y = exp(x - max) / sum.
template <typename T, int V>
__global__ void __launch_bounds__(kThreads) softmax_fused(const T* x, T* y, Index cols) {
  const T* xr = x + static_cast<Index>(blockIdx.x) * cols;
  T* yr = y + static_cast<Index>(blockIdx.x) * cols;
  float m = kNegInf, s = 0.0f;
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V];
    load<T, V>(xr + c, v);
    float vmax = v[0];
#pragma unroll
    for (int i = 1; i < V; ++i) vmax = fmaxf(vmax, v[i]);
    if (vmax == kNegInf) continue;  // nothing to add; exp(-inf - -inf) would be NaN
    if (vmax > m) {
      s *= expf(m - vmax);
      m = vmax;
    }
#pragma unroll
    for (int i = 0; i < V; ++i) s += expf(v[i] - m);
  }
  const MaxSum row = block_statistics(MaxSum{m, s});
  const float row_max = row.m, inv = 1.0f / row.s;
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V];
    load<T, V>(xr + c, v);
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = expf(v[i] - row_max) * inv;
    store<T, V>(yr + c, v);
  }
}

// Welford per thread, then the block's (count, mean, M2) in one reduction by Chan's
// combination (row_statistics.hpp).
template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    layernorm_fused(const T* x, const T* gamma, const T* beta, T* y, Index cols, float eps) {
  const T* xr = x + static_cast<Index>(blockIdx.x) * cols;
  T* yr = y + static_cast<Index>(blockIdx.x) * cols;
  float n = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V];
    load<T, V>(xr + c, v);
#pragma unroll
    for (int i = 0; i < V; ++i) {
      n += 1.0f;
      const float d = v[i] - mean;
      mean += d / n;
      m2 += d * (v[i] - mean);
    }
  }
  const MeanM2 row = block_statistics(MeanM2{n, mean, m2});
  const float row_mean = row.mean, rstd = 1.0f / sqrtf(row.m2 / row.n + eps);
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V], g[V], b[V];
    load<T, V>(xr + c, v);
    load<T, V>(gamma + c, g);
    load<T, V>(beta + c, b);
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = (v[i] - row_mean) * rstd * g[i] + b[i];
    store<T, V>(yr + c, v);
  }
}

template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    rmsnorm_fused(const T* x, const T* gamma, T* y, Index cols, float eps) {
  const T* xr = x + static_cast<Index>(blockIdx.x) * cols;
  T* yr = y + static_cast<Index>(blockIdx.x) * cols;
  float ss = 0.0f;
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V];
    load<T, V>(xr + c, v);
#pragma unroll
    for (int i = 0; i < V; ++i) ss += v[i] * v[i];
  }
  const float scale =
      1.0f / sqrtf(cuda::block_reduce(ss, cuda::Sum{}, 0) / static_cast<float>(cols) + eps);
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V], g[V];
    load<T, V>(xr + c, v);
    load<T, V>(gamma + c, g);
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = v[i] * scale * g[i];
    store<T, V>(yr + c, v);
  }
}

// --- fused, the row held in registers ------------------------------------------------
// Rows of at most kThreads * V * kItems elements: each thread loads its kItems packs at
// once (independent loads in flight), and x is read from device memory once with no second
// pass through the caches: each thread's statistics in two passes over its registers (max
// then the sum of exp; mean then the squared deviations), one exp per element, and one
// block reduction of them.
constexpr int kItems = 4;

template <typename T, int V>
__device__ __forceinline__ void load_row(const T* xr, Index cols, float (&v)[kItems][V],
                                         float fill) {
#pragma unroll
  for (int it = 0; it < kItems; ++it) {
    const Index c = (static_cast<Index>(it) * kThreads + threadIdx.x) * V;
    if (c < cols) {
      load<T, V>(xr + c, v[it]);
    } else {
#pragma unroll
      for (int i = 0; i < V; ++i) v[it][i] = fill;
    }
  }
}

template <typename T, int V>
__device__ __forceinline__ void store_row(T* yr, Index cols, const float (&v)[kItems][V]) {
#pragma unroll
  for (int it = 0; it < kItems; ++it) {
    const Index c = (static_cast<Index>(it) * kThreads + threadIdx.x) * V;
    if (c < cols) store<T, V>(yr + c, v[it]);
  }
}

// The exponential of x <= 0: expf in f32; in bf16, whose 8 bits of mantissa hide its error
// (2 + 1.16 |x| units in f32's last place), the hardware's ex2 behind __expf, a third of
// expf's instructions. Either gives 0 for -inf.
template <typename T>
__device__ __forceinline__ float exp_of(float x) {
  if constexpr (std::is_same_v<T, float>)
    return expf(x);
  else
    return __expf(x);
}

// The packs of this thread inside the row: those past the end are skipped, not computed on
// their padding (a bf16 row of 4096 fills two of a thread's four).
__device__ __forceinline__ bool in_row(int it, Index cols, int width) {
  return (static_cast<Index>(it) * kThreads + threadIdx.x) * width < cols;
}

// Each thread's (max, sum of exp(x - its max)) from its registers, the block's in one
// reduction, then y = exp(x - its max) scaled by exp(its max - the row's) / the row's sum.
template <typename T, int V>
__global__ void __launch_bounds__(kThreads) softmax_in_registers(const T* x, T* y, Index cols) {
  float v[kItems][V];
  load_row<T, V>(x + static_cast<Index>(blockIdx.x) * cols, cols, v, kNegInf);
  float m = kNegInf;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
    if (in_row(it, cols, V))
#pragma unroll
      for (int i = 0; i < V; ++i) m = fmaxf(m, v[it][i]);
  const float shift = m == kNegInf ? 0.0f : m;  // nothing but -inf: every exp is 0
  float s = 0.0f;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
    if (in_row(it, cols, V))
#pragma unroll
      for (int i = 0; i < V; ++i) {
        v[it][i] = exp_of<T>(v[it][i] - shift);
        s += v[it][i];
      }
  const MaxSum row = block_statistics(MaxSum{m, s});
  // A row of -inf only: 0 / 0, NaN, as the reference gives.
  const float scale = row.m == kNegInf ? NAN : m == kNegInf ? 0.0f : expf(m - row.m) / row.s;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
#pragma unroll
    for (int i = 0; i < V; ++i) v[it][i] *= scale;
  store_row<T, V>(y + static_cast<Index>(blockIdx.x) * cols, cols, v);
}

// Each thread's (count, mean, M2) from its registers (two passes over them), the block's in
// one reduction.
template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    layernorm_in_registers(const T* x, const T* gamma, const T* beta, T* y, Index cols, float eps) {
  float v[kItems][V];
  load_row<T, V>(x + static_cast<Index>(blockIdx.x) * cols, cols, v, 0.0f);
  float n = 0.0f, s = 0.0f;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
    if (in_row(it, cols, V)) {
      n += V;
#pragma unroll
      for (int i = 0; i < V; ++i) s += v[it][i];
    }
  const float mean = n > 0.0f ? s / n : 0.0f;
  float m2 = 0.0f;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
    if (in_row(it, cols, V))
#pragma unroll
      for (int i = 0; i < V; ++i) m2 += (v[it][i] - mean) * (v[it][i] - mean);
  const MeanM2 row = block_statistics(MeanM2{n, mean, m2});
  const float rstd = 1.0f / sqrtf(row.m2 / row.n + eps);
#pragma unroll
  for (int it = 0; it < kItems; ++it) {
    const Index c = (static_cast<Index>(it) * kThreads + threadIdx.x) * V;
    if (c >= cols) continue;
    float g[V], b[V];
    load<T, V>(gamma + c, g);
    load<T, V>(beta + c, b);
#pragma unroll
    for (int i = 0; i < V; ++i) v[it][i] = (v[it][i] - row.mean) * rstd * g[i] + b[i];
  }
  store_row<T, V>(y + static_cast<Index>(blockIdx.x) * cols, cols, v);
}

template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    rmsnorm_in_registers(const T* x, const T* gamma, T* y, Index cols, float eps) {
  float v[kItems][V];
  load_row<T, V>(x + static_cast<Index>(blockIdx.x) * cols, cols, v, 0.0f);
  float ss = 0.0f;
#pragma unroll
  for (int it = 0; it < kItems; ++it)
#pragma unroll
    for (int i = 0; i < V; ++i) ss += v[it][i] * v[it][i];
  const float scale =
      1.0f / sqrtf(cuda::block_reduce(ss, cuda::Sum{}, 0) / static_cast<float>(cols) + eps);
#pragma unroll
  for (int it = 0; it < kItems; ++it) {
    const Index c = (static_cast<Index>(it) * kThreads + threadIdx.x) * V;
    if (c >= cols) continue;
    float g[V];
    load<T, V>(gamma + c, g);
#pragma unroll
    for (int i = 0; i < V; ++i) v[it][i] = v[it][i] * scale * g[i];
  }
  store_row<T, V>(y + static_cast<Index>(blockIdx.x) * cols, cols, v);
}

bool in_registers(std::int64_t cols, int width) {
  return cols <= static_cast<std::int64_t>(kThreads) * width * kItems;
}

}  // namespace

void launch_softmax_fused(const DeviceRows& r, cudaStream_t s) {
  with_type_and_width(r.dtype, r.cols, [&](auto access) {
    using T = typename decltype(access)::type;
    constexpr int V = decltype(access)::width;
    if (in_registers(r.cols, V))
      softmax_in_registers<T, V>
          <<<row_blocks(r.rows), kThreads, 0, s>>>(as<T>(r.x), as<T>(r.y), r.cols);
    else
      softmax_fused<T, V><<<row_blocks(r.rows), kThreads, 0, s>>>(as<T>(r.x), as<T>(r.y), r.cols);
  });
  cuda_check_launch("softmax_fused");
}

void launch_layernorm_fused(const DeviceRows& r, float eps, cudaStream_t s) {
  with_type_and_width(r.dtype, r.cols, [&](auto access) {
    using T = typename decltype(access)::type;
    constexpr int V = decltype(access)::width;
    if (in_registers(r.cols, V))
      layernorm_in_registers<T, V><<<row_blocks(r.rows), kThreads, 0, s>>>(
          as<T>(r.x), as<T>(r.gamma), as<T>(r.beta), as<T>(r.y), r.cols, eps);
    else
      layernorm_fused<T, V><<<row_blocks(r.rows), kThreads, 0, s>>>(
          as<T>(r.x), as<T>(r.gamma), as<T>(r.beta), as<T>(r.y), r.cols, eps);
  });
  cuda_check_launch("layernorm_fused");
}

void launch_rmsnorm_fused(const DeviceRows& r, float eps, cudaStream_t s) {
  with_type_and_width(r.dtype, r.cols, [&](auto access) {
    using T = typename decltype(access)::type;
    constexpr int V = decltype(access)::width;
    if (in_registers(r.cols, V))
      rmsnorm_in_registers<T, V><<<row_blocks(r.rows), kThreads, 0, s>>>(as<T>(r.x), as<T>(r.gamma),
                                                                         as<T>(r.y), r.cols, eps);
    else
      rmsnorm_fused<T, V><<<row_blocks(r.rows), kThreads, 0, s>>>(as<T>(r.x), as<T>(r.gamma),
                                                                  as<T>(r.y), r.cols, eps);
  });
  cuda_check_launch("rmsnorm_fused");
}

void launch_eltwise_chain_fused(const DeviceRows& r, int length, cudaStream_t s) {
  chain_launch(r, 0, length, r.x, s);
}

}  // namespace ridgeline
