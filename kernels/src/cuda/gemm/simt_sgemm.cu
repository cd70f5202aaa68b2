// The f32 SIMT ladder on the GPU, one step per kernel, each a known technique:
// naive (threads along rows: uncoalesced), coalesced (threads along columns), shared-memory
// tiles, 2D register blocking, and the same with 16-byte loads. Row-major, NN, any size.
#include "../cuda_check.hpp"
#include "launchers.hpp"

namespace ridgeline {

namespace {

using Index = long long;

unsigned blocks(Index extent, int per_block) {
  return static_cast<unsigned>((extent + per_block - 1) / per_block);
}

// Consecutive threads take consecutive rows: each warp reads A and writes C with a stride
// of a whole row, the classic uncoalesced first version.
__global__ void sgemm_naive(Index m, Index n, Index k, const float* a, Index lda, const float* b,
                            Index ldb, float* c, Index ldc) {
  const Index row = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  const Index col = static_cast<Index>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0;
  for (Index p = 0; p < k; ++p) acc += a[row * lda + p] * b[p * ldb + col];
  c[row * ldc + col] = acc;
}

// Consecutive threads take consecutive columns: B and C accesses coalesce, A broadcasts.
__global__ void sgemm_coalesced(Index m, Index n, Index k, const float* a, Index lda,
                                const float* b, Index ldb, float* c, Index ldc) {
  const Index col = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  const Index row = static_cast<Index>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0;
  for (Index p = 0; p < k; ++p) acc += a[row * lda + p] * b[p * ldb + col];
  c[row * ldc + col] = acc;
}

// 32x32 tiles of A and B staged in shared memory: each global element is read once per tile.
__global__ void sgemm_smem_32x32(Index m, Index n, Index k, const float* a, Index lda,
                                 const float* b, Index ldb, float* c, Index ldc) {
  __shared__ float as[32][32];
  __shared__ float bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const Index row = static_cast<Index>(blockIdx.y) * 32 + ty;
  const Index col = static_cast<Index>(blockIdx.x) * 32 + tx;
  float acc = 0;
  for (Index t = 0; t < k; t += 32) {
    as[ty][tx] = (row < m && t + tx < k) ? a[row * lda + t + tx] : 0.0f;
    bs[ty][tx] = (t + ty < k && col < n) ? b[(t + ty) * ldb + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < 32; ++p) acc += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * ldc + col] = acc;
}

// 128x128 block tile, 8-deep k slices, each of 256 threads computing an 8x8 register tile:
// 64 FMAs per 16 shared-memory loads. A is stored transposed in shared memory so both
// operands are read along a row. Vec4 also moves global and shared data 16 bytes at a time
// (it needs k and n to be multiples of 4).
template <bool Vec4>
__global__ void __launch_bounds__(256)
    sgemm_regblock(Index m, Index n, Index k, const float* a, Index lda, const float* b, Index ldb,
                   float* c, Index ldc) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ __align__(16) float as[BK][BM];
  __shared__ __align__(16) float bs[BK][BN];
  const int tid = threadIdx.x;
  const int thread_row = tid / (BN / TN);
  const int thread_col = tid % (BN / TN);
  const Index row0 = static_cast<Index>(blockIdx.y) * BM;
  const Index col0 = static_cast<Index>(blockIdx.x) * BN;
  float acc[TM][TN] = {};
  float reg_m[TM], reg_n[TN];
  for (Index t = 0; t < k; t += BK) {
    if constexpr (Vec4) {
      {  // A: 128 rows x 2 vectors
        const int r = tid / (BK / 4), c4 = (tid % (BK / 4)) * 4;
        const Index gr = row0 + r, gc = t + c4;
        const float4 v = (gr < m && gc < k) ? *reinterpret_cast<const float4*>(&a[gr * lda + gc])
                                            : make_float4(0, 0, 0, 0);
        as[c4 + 0][r] = v.x;
        as[c4 + 1][r] = v.y;
        as[c4 + 2][r] = v.z;
        as[c4 + 3][r] = v.w;
      }
      {  // B: 8 rows x 32 vectors
        const int r = tid / (BN / 4), c4 = (tid % (BN / 4)) * 4;
        const Index gr = t + r, gc = col0 + c4;
        *reinterpret_cast<float4*>(&bs[r][c4]) =
            (gr < k && gc < n) ? *reinterpret_cast<const float4*>(&b[gr * ldb + gc])
                               : make_float4(0, 0, 0, 0);
      }
    } else {
      for (int i = tid; i < BM * BK; i += 256) {
        const int r = i / BK, cc = i % BK;
        const Index gr = row0 + r, gc = t + cc;
        as[cc][r] = (gr < m && gc < k) ? a[gr * lda + gc] : 0.0f;
      }
      for (int i = tid; i < BK * BN; i += 256) {
        const int r = i / BN, cc = i % BN;
        const Index gr = t + r, gc = col0 + cc;
        bs[r][cc] = (gr < k && gc < n) ? b[gr * ldb + gc] : 0.0f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      if constexpr (Vec4) {
#pragma unroll
        for (int i = 0; i < TM; i += 4) {
          const float4 v = *reinterpret_cast<const float4*>(&as[p][thread_row * TM + i]);
          reg_m[i] = v.x, reg_m[i + 1] = v.y, reg_m[i + 2] = v.z, reg_m[i + 3] = v.w;
        }
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
          const float4 v = *reinterpret_cast<const float4*>(&bs[p][thread_col * TN + j]);
          reg_n[j] = v.x, reg_n[j + 1] = v.y, reg_n[j + 2] = v.z, reg_n[j + 3] = v.w;
        }
      } else {
#pragma unroll
        for (int i = 0; i < TM; ++i) reg_m[i] = as[p][thread_row * TM + i];
#pragma unroll
        for (int j = 0; j < TN; ++j) reg_n[j] = bs[p][thread_col * TN + j];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += reg_m[i] * reg_n[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const Index gr = row0 + thread_row * TM + i;
    if (gr >= m) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const Index gc = col0 + thread_col * TN + j;
      if (gc < n) c[gr * ldc + gc] = acc[i][j];
    }
  }
}

// Warp tiling: 128 threads, a 128x128 block tile in 16-deep k slices; each warp owns a
// 64x64 piece, computed as four 64x16 sub-tiles so that a warp's 32 threads read 16
// consecutive B values and broadcast A values from shared memory; each thread holds 8x16
// results. Needs m and n multiples of 128, k a multiple of 16.
__global__ void __launch_bounds__(128)
    sgemm_warptile(Index m, Index n, Index k, const float* a, Index lda, const float* b, Index ldb,
                   float* c, Index ldc) {
  constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WNITER = 4, TM = 8, TN = 4;
  constexpr int WSUBN = WN / WNITER;           // 16
  __shared__ __align__(16) float as[BK * BM];  // transposed: as[p * BM + row]
  __shared__ __align__(16) float bs[BK * BN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = warp / (BN / WN), warp_col = warp % (BN / WN);
  const int lane_row = lane / (WSUBN / TN), lane_col = lane % (WSUBN / TN);  // 8 x 4 lanes
  const Index row0 = static_cast<Index>(blockIdx.y) * BM;
  const Index col0 = static_cast<Index>(blockIdx.x) * BN;
  (void)m;
  float acc[TM * WNITER * TN] = {};
  float reg_m[TM], reg_n[WNITER * TN];
  for (Index t = 0; t < k; t += BK) {
#pragma unroll
    for (int step = 0; step < BM; step += 32) {  // A: 128 rows x 4 vectors, 4 per thread
      const int r = step + tid / (BK / 4), c4 = (tid % (BK / 4)) * 4;
      const float4 v = *reinterpret_cast<const float4*>(&a[(row0 + r) * lda + t + c4]);
      as[(c4 + 0) * BM + r] = v.x;
      as[(c4 + 1) * BM + r] = v.y;
      as[(c4 + 2) * BM + r] = v.z;
      as[(c4 + 3) * BM + r] = v.w;
    }
#pragma unroll
    for (int step = 0; step < BK; step += 4) {  // B: 16 rows x 32 vectors, 4 per thread
      const int r = step + tid / (BN / 4), c4 = (tid % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&bs[r * BN + c4]) =
          *reinterpret_cast<const float4*>(&b[(t + r) * ldb + col0 + c4]);
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; i += 4) {  // 16-byte reads: no bank conflicts across a warp
        const float4 v =
            *reinterpret_cast<const float4*>(&as[p * BM + warp_row * WM + lane_row * TM + i]);
        reg_m[i] = v.x, reg_m[i + 1] = v.y, reg_m[i + 2] = v.z, reg_m[i + 3] = v.w;
      }
#pragma unroll
      for (int w = 0; w < WNITER; ++w) {
        const float4 v = *reinterpret_cast<const float4*>(
            &bs[p * BN + warp_col * WN + w * WSUBN + lane_col * TN]);
        reg_n[w * TN] = v.x, reg_n[w * TN + 1] = v.y, reg_n[w * TN + 2] = v.z,
                  reg_n[w * TN + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j) acc[i * WNITER * TN + j] += reg_m[i] * reg_n[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const Index gr = row0 + warp_row * WM + lane_row * TM + i;
#pragma unroll
    for (int w = 0; w < WNITER; ++w) {
      const Index gc = col0 + warp_col * WN + w * WSUBN + lane_col * TN;
      *reinterpret_cast<float4*>(&c[gr * ldc + gc]) =
          make_float4(acc[i * WNITER * TN + w * TN + 0], acc[i * WNITER * TN + w * TN + 1],
                      acc[i * WNITER * TN + w * TN + 2], acc[i * WNITER * TN + w * TN + 3]);
    }
  }
}

// The warp-tiled kernel with its global loads taken off the critical path: two shared
// buffers; while the warps compute on one, the next slice of B streams into the other by
// cp.async and the next slice of A waits in registers (it is stored transposed, which
// cp.async cannot do) until the compute is done. One barrier per slice instead of two.
// Needs m and n multiples of 128, k a multiple of 16.
__device__ void copy16_async(float* shared, const float* global) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global));
}

__global__ void __launch_bounds__(128)
    sgemm_pipelined(Index m, Index n, Index k, const float* a, Index lda, const float* b, Index ldb,
                    float* c, Index ldc) {
  constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WNITER = 4, TM = 8, TN = 4;
  constexpr int WSUBN = WN / WNITER;
  __shared__ __align__(16) float as[2][BK * BM];  // transposed: as[.][p * BM + row]
  __shared__ __align__(16) float bs[2][BK * BN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = warp / (BN / WN), warp_col = warp % (BN / WN);
  const int lane_row = lane / (WSUBN / TN), lane_col = lane % (WSUBN / TN);
  const Index row0 = static_cast<Index>(blockIdx.y) * BM;
  const Index col0 = static_cast<Index>(blockIdx.x) * BN;
  (void)m;
  const int a_row = tid / (BK / 4), a_c4 = (tid % (BK / 4)) * 4;  // + 32 rows per step
  const int b_row = tid / (BN / 4), b_c4 = (tid % (BN / 4)) * 4;  // + 4 rows per step
  float4 a_next[BM / 32];
  const auto load_a = [&](Index t) {
#pragma unroll
    for (int s = 0; s < BM / 32; ++s)
      a_next[s] = *reinterpret_cast<const float4*>(&a[(row0 + a_row + 32 * s) * lda + t + a_c4]);
  };
  const auto store_a = [&](int buf) {
#pragma unroll
    for (int s = 0; s < BM / 32; ++s) {
      const int r = a_row + 32 * s;
      as[buf][(a_c4 + 0) * BM + r] = a_next[s].x;
      as[buf][(a_c4 + 1) * BM + r] = a_next[s].y;
      as[buf][(a_c4 + 2) * BM + r] = a_next[s].z;
      as[buf][(a_c4 + 3) * BM + r] = a_next[s].w;
    }
  };
  const auto load_b = [&](int buf, Index t) {
#pragma unroll
    for (int s = 0; s < BK / 4; ++s) {
      const int r = b_row + 4 * s;
      copy16_async(&bs[buf][r * BN + b_c4], &b[(t + r) * ldb + col0 + b_c4]);
    }
    asm volatile("cp.async.commit_group;\n" ::);
  };

  float acc[TM * WNITER * TN] = {};
  float reg_m[TM], reg_n[WNITER * TN];
  load_a(0);
  load_b(0, 0);
  store_a(0);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  int cur = 0;
  for (Index t = 0; t < k; t += BK) {
    const bool more = t + BK < k;
    if (more) {
      load_a(t + BK);
      load_b(cur ^ 1, t + BK);
    }
#pragma unroll
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; i += 4) {
        const float4 v =
            *reinterpret_cast<const float4*>(&as[cur][p * BM + warp_row * WM + lane_row * TM + i]);
        reg_m[i] = v.x, reg_m[i + 1] = v.y, reg_m[i + 2] = v.z, reg_m[i + 3] = v.w;
      }
#pragma unroll
      for (int w = 0; w < WNITER; ++w) {
        const float4 v = *reinterpret_cast<const float4*>(
            &bs[cur][p * BN + warp_col * WN + w * WSUBN + lane_col * TN]);
        reg_n[w * TN] = v.x, reg_n[w * TN + 1] = v.y, reg_n[w * TN + 2] = v.z,
                  reg_n[w * TN + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j) acc[i * WNITER * TN + j] += reg_m[i] * reg_n[j];
    }
    if (more) {
      store_a(cur ^ 1);
      asm volatile("cp.async.wait_group 0;\n" ::);
    }
    __syncthreads();
    cur ^= 1;
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const Index gr = row0 + warp_row * WM + lane_row * TM + i;
#pragma unroll
    for (int w = 0; w < WNITER; ++w) {
      const Index gc = col0 + warp_col * WN + w * WSUBN + lane_col * TN;
      *reinterpret_cast<float4*>(&c[gr * ldc + gc]) =
          make_float4(acc[i * WNITER * TN + w * TN + 0], acc[i * WNITER * TN + w * TN + 1],
                      acc[i * WNITER * TN + w * TN + 2], acc[i * WNITER * TN + w * TN + 3]);
    }
  }
}

template <typename Kernel>
void launch(Kernel kernel, dim3 grid, dim3 block, const DeviceGemm& g, cudaStream_t stream,
            const char* name) {
  kernel<<<grid, block, 0, stream>>>(g.m, g.n, g.k, static_cast<const float*>(g.a), g.lda,
                                     static_cast<const float*>(g.b), g.ldb,
                                     static_cast<float*>(g.c), g.ldc);
  cuda_check_launch(name);
}

}  // namespace

void launch_sgemm_naive(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_naive, dim3(blocks(g.m, 16), blocks(g.n, 16)), dim3(16, 16), g, stream,
         "sgemm_naive");
}

void launch_sgemm_coalesced(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_coalesced, dim3(blocks(g.n, 32), blocks(g.m, 8)), dim3(32, 8), g, stream,
         "sgemm_coalesced");
}

void launch_sgemm_smem_32x32(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_smem_32x32, dim3(blocks(g.n, 32), blocks(g.m, 32)), dim3(32, 32), g, stream,
         "sgemm_smem_32x32");
}

void launch_sgemm_regblock_128x128x8_8x8(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_regblock<false>, dim3(blocks(g.n, 128), blocks(g.m, 128)), dim3(256), g, stream,
         "sgemm_regblock_128x128x8_8x8");
}

void launch_sgemm_vec4_128x128x8_8x8(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_regblock<true>, dim3(blocks(g.n, 128), blocks(g.m, 128)), dim3(256), g, stream,
         "sgemm_vec4_128x128x8_8x8");
}

void launch_sgemm_warptile_128x128x16(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_warptile, dim3(blocks(g.n, 128), blocks(g.m, 128)), dim3(128), g, stream,
         "sgemm_warptile_128x128x16");
}

void launch_sgemm_pipelined_128x128x16(const DeviceGemm& g, cudaStream_t stream) {
  launch(sgemm_pipelined, dim3(blocks(g.n, 128), blocks(g.m, 128)), dim3(128), g, stream,
         "sgemm_pipelined_128x128x16");
}

}  // namespace ridgeline
