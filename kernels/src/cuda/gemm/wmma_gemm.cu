// Tensor-core GEMM through WMMA (mma.sync underneath): bf16 or f16 inputs, f32
// accumulators and C. 128x128 block tiles, 32-deep k slices, 8 warps of 64x32 each
// (4x2 fragments of 16x16x16), and a two-stage cp.async pipeline that loads the next slice
// while the tensor cores work on this one. Row-major, NN, m, n and k multiples of 16.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "../cp_async.cuh"
#include "../cuda_check.hpp"
#include "launchers.hpp"

namespace ridgeline {

namespace {

using Index = long long;
namespace wmma = nvcuda::wmma;

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int A_LD = BK + 8;  // padding of 16 bytes per row keeps ldmatrix off one bank
constexpr int B_LD = BN + 8;

template <typename T>
struct Tiles {
  T a[2][BM * A_LD];
  T b[2][BK * B_LD];
};

// One k slice of A (128 x 32) and B (32 x 128) into stage `s`: 512 vectors of 8 elements
// each, two per thread per operand.
template <typename T>
__device__ void load_slice(Tiles<T>& tiles, int s, const T* a, const T* b, Index m, Index n,
                           Index k, Index lda, Index ldb, Index row0, Index col0, Index t) {
  const int tid = threadIdx.x;
#pragma unroll
  for (int v = tid; v < BM * BK / 8; v += 256) {
    const int r = v / (BK / 8), c8 = (v % (BK / 8)) * 8;
    const Index gr = row0 + r, gc = t + c8;
    const bool inside = gr < m && gc < k;
    copy16_async(&tiles.a[s][r * A_LD + c8], inside ? &a[gr * lda + gc] : a, inside);
  }
#pragma unroll
  for (int v = tid; v < BK * BN / 8; v += 256) {
    const int r = v / (BN / 8), c8 = (v % (BN / 8)) * 8;
    const Index gr = t + r, gc = col0 + c8;
    const bool inside = gr < k && gc < n;
    copy16_async(&tiles.b[s][r * B_LD + c8], inside ? &b[gr * ldb + gc] : b, inside);
  }
}

template <typename T>
__global__ void __launch_bounds__(256) wmma_gemm(Index m, Index n, Index k, const T* a, Index lda,
                                                 const T* b, Index ldb, float* c, Index ldc) {
  __shared__ __align__(128) Tiles<T> tiles;
  const int warp = threadIdx.x / 32;
  const int warp_row = warp / 4;  // 2 x 4 warps: 64 rows x 32 columns each
  const int warp_col = warp % 4;
  const Index row0 = static_cast<Index>(blockIdx.y) * BM;
  const Index col0 = static_cast<Index>(blockIdx.x) * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  const Index slices = (k + BK - 1) / BK;
  load_slice(tiles, 0, a, b, m, n, k, lda, ldb, row0, col0, 0);
  commit_copies();
  for (Index s = 0; s < slices; ++s) {
    if (s + 1 < slices) {
      load_slice(tiles, static_cast<int>((s + 1) & 1), a, b, m, n, k, lda, ldb, row0, col0,
                 (s + 1) * BK);
      commit_copies();
      wait_copies<1>();
    } else {
      wait_copies<0>();
    }
    __syncthreads();
    const T* as = tiles.a[s & 1];
    const T* bs = tiles.b[s & 1];
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        wmma::load_matrix_sync(fa[i], as + (warp_row * 64 + i * 16) * A_LD + kk, A_LD);
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], bs + kk * B_LD + warp_col * 32 + j * 16, B_LD);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();  // the stage is overwritten by the load two slices on
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const Index r = row0 + warp_row * 64 + i * 16, cc = col0 + warp_col * 32 + j * 16;
      if (r < m && cc < n)  // m and n are multiples of 16: a fragment is all in or all out
        wmma::store_matrix_sync(c + r * ldc + cc, acc[i][j], static_cast<unsigned>(ldc),
                                wmma::mem_row_major);
    }
}

template <typename T>
void launch_typed(const DeviceGemm& g, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((g.n + BN - 1) / BN),
                  static_cast<unsigned>((g.m + BM - 1) / BM));
  wmma_gemm<T><<<grid, 256, 0, stream>>>(g.m, g.n, g.k, static_cast<const T*>(g.a), g.lda,
                                         static_cast<const T*>(g.b), g.ldb,
                                         static_cast<float*>(g.c), g.ldc);
  cuda_check_launch("wmma_gemm_128x128x32");
}

}  // namespace

void launch_wmma_128x128x32(const DeviceGemm& g, cudaStream_t stream) {
  if (g.dtype == DType::bf16)
    launch_typed<__nv_bfloat16>(g, stream);
  else
    launch_typed<__half>(g, stream);
}

}  // namespace ridgeline
