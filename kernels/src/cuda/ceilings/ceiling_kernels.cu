// The GPU ceiling microbenchmarks: arithmetic peaks from register-only loops (FMA for f64
// and f32, mma.sync for the tensor cores), bandwidth from streaming kernels, and an empty
// kernel for launch overhead.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <string>

#include "../cuda_check.hpp"
#include "ceiling_kernels.hpp"

namespace ridgeline {

namespace {

constexpr int kChains = 8;

template <typename T>
__global__ void fma_peak(T* sink, int iterations, T a, T b) {
  T x[kChains];
#pragma unroll
  for (int i = 0; i < kChains; ++i) x[i] = static_cast<T>(threadIdx.x) * T(1e-3) + T(i);
  for (int it = 0; it < iterations; ++it)
#pragma unroll
    for (int i = 0; i < kChains; ++i) x[i] = fma(x[i], a, b);
  T s = 0;
#pragma unroll
  for (int i = 0; i < kChains; ++i) s += x[i];
  if (s == T(-1234.5)) sink[0] = s;  // never true; keeps the chains alive
}

template <typename T>
double fma_launch(int blocks, int threads, int iterations, void* sink, cudaStream_t s) {
  fma_peak<T><<<blocks, threads, 0, s>>>(static_cast<T*>(sink), iterations, T(0.999999), T(1e-7));
  cuda_check_launch("fma_peak");
  return 2.0 * kChains * iterations * static_cast<double>(blocks) * threads;
}

// One mma.sync per accumulator set per iteration; operands never change (the tensor cores'
// rate does not depend on the values for this purpose: zero-free patterns are used).
template <int Kind>
__global__ void mma_peak(float* sink, int iterations) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned a0 = 0x3c003c00u ^ lane, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  const unsigned b0 = 0x3c003c00u ^ (lane << 1), b1 = b0 + 1;
  float f[4][4] = {};
  int n[4][4] = {};
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if constexpr (Kind == 0)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(f[c][0]), "+f"(f[c][1]), "+f"(f[c][2]), "+f"(f[c][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      else if constexpr (Kind == 1)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(f[c][0]), "+f"(f[c][1]), "+f"(f[c][2]), "+f"(f[c][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      else if constexpr (Kind == 2)
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(f[c][0]), "+f"(f[c][1]), "+f"(f[c][2]), "+f"(f[c][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      else
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+r"(n[c][0]), "+r"(n[c][1]), "+r"(n[c][2]), "+r"(n[c][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }
  float s = 0;
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int i = 0; i < 4; ++i) s += f[c][i] + static_cast<float>(n[c][i]);
  if (s == -1234.5f) sink[0] = s;
}

// Four 16-byte loads in flight per thread before their stores, streamed past the caches
// (ld/st .cs: read once, written once): one load at a time left 2048 threads x 16 B = 32 KiB
// in flight per SM, about what an H200's 4.8 TB/s needs over its ~700 ns latency, and the
// kernel reached 0.90-0.95 of cudaMemcpy's copy (docs/gpu-measured.md).
constexpr int kCopyUnroll = 4;

__global__ void copy_kernel(float4* dst, const float4* src, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (; i + (kCopyUnroll - 1) * stride < n; i += kCopyUnroll * stride) {
    float4 v[kCopyUnroll];
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) v[u] = __ldcs(&src[i + u * stride]);
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) __stcs(&dst[i + u * stride], v[u]);
  }
  for (; i < n; i += stride) __stcs(&dst[i], __ldcs(&src[i]));
}

__global__ void read_kernel(const float4* src, std::size_t n, int passes, float* sink) {
  float4 acc = make_float4(0, 0, 0, 0);
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
      const float4 v = __ldcg(&src[i]);  // L2, not L1: the L2 ceiling is what is measured
      acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
    }
  if (acc.x + acc.y + acc.z + acc.w == -1234.5f) sink[0] = acc.x;
}

constexpr int kSharedVectors = 2048;  // 32 KiB per block

__global__ void shared_read_kernel(int passes, float* sink) {
  __shared__ float4 data[kSharedVectors];
  for (int i = threadIdx.x; i < kSharedVectors; i += blockDim.x)
    data[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  float4 acc = make_float4(0, 0, 0, 0);
  for (int p = 0; p < passes; ++p)
#pragma unroll 8
    for (int i = threadIdx.x; i < kSharedVectors; i += blockDim.x) {
      const float4 v = data[(i + p) % kSharedVectors];
      acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
    }
  if (acc.x + acc.y + acc.z + acc.w == -1234.5f) sink[0] = acc.x;
}

// Each block sums its own `n` vectors `passes` times through L1 (ld.global.ca): after the
// first pass they are L1 hits.
__global__ void l1_read_kernel(const float4* src, std::size_t n, int passes, float* sink) {
  const float4* mine = src + static_cast<std::size_t>(blockIdx.x) * n;
  float4 acc = make_float4(0, 0, 0, 0);
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) {
      const float4 v = __ldca(&mine[i]);
      acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
    }
  if (acc.x + acc.y + acc.z + acc.w == -1234.5f) sink[0] = acc.x;
}

__global__ void empty_kernel() {}

__device__ std::uint32_t hash32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__global__ void fill_uniform(void* dst, std::size_t n, int code, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t h = hash32(static_cast<std::uint32_t>(i) ^ (seed * 0x9e3779b9U));
    const float u = static_cast<float>(h >> 8) * 0x1p-23f - 1.0f;  // [-1, 1)
    if (code == 5)
      static_cast<__nv_fp8_e4m3*>(dst)[i] = __nv_fp8_e4m3(u);
    else if (code == 4)
      static_cast<double*>(dst)[i] = u;
    else if (code == 3)
      static_cast<__half*>(dst)[i] = __float2half(u);
    else if (code == 2)
      static_cast<__nv_bfloat16*>(dst)[i] = __float2bfloat16(u);
    else if (code == 1)
      static_cast<signed char*>(dst)[i] = static_cast<signed char>(u * 127.0f);
    else
      static_cast<float*>(dst)[i] = u;
  }
}

}  // namespace

double launch_fma_peak_f64(int blocks, int threads, int iterations, void* sink, cudaStream_t s) {
  return fma_launch<double>(blocks, threads, iterations, sink, s);
}
double launch_fma_peak_f32(int blocks, int threads, int iterations, void* sink, cudaStream_t s) {
  return fma_launch<float>(blocks, threads, iterations, sink, s);
}

double launch_mma_peak(const char* kind, int blocks, int warps_per_block, int iterations,
                       void* sink, cudaStream_t s) {
  const std::string k = kind;
  const dim3 grid(blocks), block(32 * warps_per_block);
  float* out = static_cast<float*>(sink);
  double per_mma = 2.0 * 16 * 8 * 16;
  if (k == "bf16") {
    mma_peak<0><<<grid, block, 0, s>>>(out, iterations);
  } else if (k == "f16") {
    mma_peak<1><<<grid, block, 0, s>>>(out, iterations);
  } else if (k == "tf32") {
    mma_peak<2><<<grid, block, 0, s>>>(out, iterations);
    per_mma = 2.0 * 16 * 8 * 8;
  } else {
    mma_peak<3><<<grid, block, 0, s>>>(out, iterations);
    per_mma = 2.0 * 16 * 8 * 32;
  }
  cuda_check_launch("mma_peak");
  return per_mma * 4 * iterations * static_cast<double>(blocks) * warps_per_block;
}

void launch_copy(void* dst, const void* src, std::size_t bytes, int blocks, cudaStream_t s) {
  copy_kernel<<<blocks, 512, 0, s>>>(static_cast<float4*>(dst), static_cast<const float4*>(src),
                                     bytes / 16);
  cuda_check_launch("copy_kernel");
}

void launch_read(const void* src, std::size_t bytes, int passes, void* sink, int blocks,
                 cudaStream_t s) {
  read_kernel<<<blocks, 512, 0, s>>>(static_cast<const float4*>(src), bytes / 16, passes,
                                     static_cast<float*>(sink));
  cuda_check_launch("read_kernel");
}

double launch_shared_read(int blocks, int passes, void* sink, cudaStream_t s) {
  shared_read_kernel<<<blocks, 512, 0, s>>>(passes, static_cast<float*>(sink));
  cuda_check_launch("shared_read_kernel");
  return 16.0 * kSharedVectors * passes * static_cast<double>(blocks);
}

double launch_l1_read(const void* src, std::size_t bytes_per_block, int passes, void* sink,
                      int blocks, cudaStream_t s) {
  l1_read_kernel<<<blocks, 512, 0, s>>>(static_cast<const float4*>(src), bytes_per_block / 16,
                                        passes, static_cast<float*>(sink));
  cuda_check_launch("l1_read_kernel");
  return static_cast<double>(bytes_per_block) * passes * blocks;
}

void launch_empty(cudaStream_t s) {
  empty_kernel<<<1, 1, 0, s>>>();
  cuda_check_launch("empty_kernel");
}

void launch_fill_uniform(void* dst, std::size_t elements, int dtype_code, std::uint32_t seed,
                         cudaStream_t s) {
  fill_uniform<<<1024, 256, 0, s>>>(dst, elements, dtype_code, seed);
  cuda_check_launch("fill_uniform");
}

}  // namespace ridgeline
