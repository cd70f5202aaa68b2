// Tensor-core GEMM on mma.sync directly (the instruction WMMA wraps), written the way
// CUTLASS's sm80 kernels are: bf16 or f16 inputs, f32 accumulators and C; 128x256 block
// tiles, BK-deep k slices (32 or 64); 8 warps of 64x64 (4 x 8 mma.m16n8k16 per 16-deep
// step), their fragments read from shared memory by ldmatrix (transposed for B); a
// cp.async pipeline of STAGES slices, STAGES - 1 in flight while the tensor cores work.
// Rows of shared memory are padded by 16 bytes: the 8 rows one ldmatrix reads then fall
// in 8 different groups of banks. Row-major, NN; n and k multiples of 8 (16-byte rows),
// any m. gemm_bias_act's epilogue (EPI) adds the bias and applies the activation to the
// accumulators before the one store of C: no pass through C after the product.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "../cp_async.cuh"
#include "../cuda_check.hpp"
#include "gemm_epilogue.cuh"
#include "launchers.hpp"

namespace ridgeline {

namespace {

using Index = long long;

constexpr int BM = 128, BN = 256, THREADS = 256;
constexpr int B_LD = BN + 8;  // elements per shared row of B (padded)
template <int BK>
struct Slice {
  static constexpr int A_LD = BK + 8;                 // elements per shared row of A (padded)
  static constexpr int A = BM * A_LD, B = BK * B_LD;  // elements per stage
};
template <int BK, int STAGES>
constexpr std::size_t shared_bytes() {
  return STAGES * (Slice<BK>::A + Slice<BK>::B) * 2;  // 2-byte elements
}

// One k slice of A (128 x BK) and B (BK x 256) into one stage, 16 bytes per copy (BK = 32:
// 2 copies of A and 4 of B per thread).
template <typename T, int BK>
__device__ void load_slice(T* as, T* bs, const T* a, const T* b, Index m, Index n, Index k,
                           Index lda, Index ldb, Index row0, Index col0, Index t) {
  const int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < BM * BK / 8 / THREADS; ++i) {
    const int v = tid + i * THREADS;
    const int r = v / (BK / 8), c8 = (v % (BK / 8)) * 8;
    const Index gr = row0 + r, gc = t + c8;
    const bool inside = gr < m && gc < k;
    copy16_async(&as[r * Slice<BK>::A_LD + c8], inside ? &a[gr * lda + gc] : a, inside);
  }
#pragma unroll
  for (int i = 0; i < BK * BN / 8 / THREADS; ++i) {
    const int v = tid + i * THREADS;
    const int r = v / (BN / 8), c8 = (v % (BN / 8)) * 8;
    const Index gr = t + r, gc = col0 + c8;
    const bool inside = gr < k && gc < n;
    copy16_async(&bs[r * B_LD + c8], inside ? &b[gr * ldb + gc] : b, inside);
  }
}

__device__ void ldmatrix_x4(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}
__device__ void ldmatrix_x4_trans(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}

template <typename T>
__device__ void mma_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <typename T, int BK, int STAGES, Epilogue EPI>
__global__ void __launch_bounds__(THREADS, 1)
    mma_gemm(Index m, Index n, Index k, const T* a, Index lda, const T* b, Index ldb, float* c,
             Index ldc, const T* bias) {
  extern __shared__ __align__(128) unsigned char shared[];
  T* as = reinterpret_cast<T*>(shared);
  constexpr int A_LD = Slice<BK>::A_LD, A_STAGE = Slice<BK>::A, B_STAGE = Slice<BK>::B;
  T* bs = as + STAGES * A_STAGE;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warp_m = warp / 4, warp_n = warp % 4;  // 2 x 4 warps of 64 x 64
  // Blocks in groups of 8 block rows, column by column within a group: the blocks resident
  // at one time share A panels and B panels in L2 rather than each reading its own.
  constexpr int GROUP = 8;
  const int grid_n = static_cast<int>(gridDim.x), grid_m = static_cast<int>(gridDim.y);
  const int pid = static_cast<int>(blockIdx.y) * grid_n + static_cast<int>(blockIdx.x);
  const int first_m = pid / (GROUP * grid_n) * GROUP;
  const int group_rows = min(grid_m - first_m, GROUP);
  const int in_group = pid % (GROUP * grid_n);
  const Index row0 = static_cast<Index>(first_m + in_group % group_rows) * BM;
  const Index col0 = static_cast<Index>(in_group / group_rows) * BN;

  float acc[4][8][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  const Index slices = (k + BK - 1) / BK;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < slices)
      load_slice<T, BK>(as + s * A_STAGE, bs + s * B_STAGE, a, b, m, n, k, lda, ldb, row0, col0,
                        static_cast<Index>(s) * BK);
    commit_copies();
  }

  for (Index s = 0; s < slices; ++s) {
    // Slice s has landed once at most STAGES - 2 younger groups are pending; the barrier
    // also says every warp is done with the stage the next load overwrites.
    wait_copies<STAGES - 2>();
    __syncthreads();
    const Index next = s + STAGES - 1;
    if (next < slices) {
      const int st = static_cast<int>(next % STAGES);
      load_slice<T, BK>(as + st * A_STAGE, bs + st * B_STAGE, a, b, m, n, k, lda, ldb, row0, col0,
                        next * BK);
    }
    commit_copies();

    const int st = static_cast<int>(s % STAGES);
    const T* at = as + st * A_STAGE + (warp_m * 64) * A_LD;
    const T* bt = bs + st * B_STAGE + warp_n * 64;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned fa[4][4], fb[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i)  // rows i*16 + lane%16, k kk + (lane/16)*8
        ldmatrix_x4(fa[i], at + (i * 16 + lane % 16) * A_LD + kk + (lane / 16) * 8);
#pragma unroll
      for (int j = 0; j < 4; ++j)  // k kk + lane%16, columns j*16 + (lane/16)*8
        ldmatrix_x4_trans(fb[j], bt + (kk + lane % 16) * B_LD + j * 16 + (lane / 16) * 8);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
          mma_16816<T>(acc[i][j], fa[i], fb[j / 2][(j % 2) * 2], fb[j / 2][(j % 2) * 2 + 1]);
    }
  }
  wait_copies<0>();

  // Accumulator layout of m16n8: c0, c1 at (lane/4, 2*(lane%4) + {0,1}); c2, c3 eight rows on.
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const Index col = col0 + warp_n * 64 + j * 8 + 2 * (lane % 4);
      if (col >= n) continue;  // n is a multiple of 8: both columns are in or out
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const Index row = row0 + warp_m * 64 + i * 16 + lane / 4 + h * 8;
        if (row < m)
          *reinterpret_cast<float2*>(&c[row * ldc + col]) =
              gemm_epilogue<EPI>(acc[i][j][2 * h], acc[i][j][2 * h + 1], bias, col);
      }
    }
}

template <typename T, int BK, int STAGES, Epilogue EPI>
void launch_typed(const DeviceGemm& g, cudaStream_t stream, const char* name) {
  constexpr std::size_t bytes = shared_bytes<BK, STAGES>();
  static bool configured = false;  // the dynamic shared-memory limit, once per instance
  if (!configured) {
    RIDGELINE_CUDA(cudaFuncSetAttribute(mma_gemm<T, BK, STAGES, EPI>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes)));
    configured = true;
  }
  const dim3 grid(static_cast<unsigned>((g.n + BN - 1) / BN),
                  static_cast<unsigned>((g.m + BM - 1) / BM));
  mma_gemm<T, BK, STAGES, EPI><<<grid, THREADS, bytes, stream>>>(
      g.m, g.n, g.k, static_cast<const T*>(g.a), g.lda, static_cast<const T*>(g.b), g.ldb,
      static_cast<float*>(g.c), g.ldc, static_cast<const T*>(g.bias));
  cuda_check_launch(name);
}

template <typename T, int BK, int STAGES>
void launch_epilogue(const DeviceGemm& g, cudaStream_t stream, const char* name) {
  switch (g.epilogue) {
    case Epilogue::none:
      return launch_typed<T, BK, STAGES, Epilogue::none>(g, stream, name);
    case Epilogue::bias_relu:
      return launch_typed<T, BK, STAGES, Epilogue::bias_relu>(g, stream, name);
    case Epilogue::bias_gelu_tanh:
      return launch_typed<T, BK, STAGES, Epilogue::bias_gelu_tanh>(g, stream, name);
  }
}

template <int BK, int STAGES>
void launch_dtype(const DeviceGemm& g, cudaStream_t stream, const char* name) {
  if (g.dtype == DType::bf16)
    launch_epilogue<__nv_bfloat16, BK, STAGES>(g, stream, name);
  else
    launch_epilogue<__half, BK, STAGES>(g, stream, name);
}

}  // namespace

void launch_mma_128x256x32(const DeviceGemm& g, cudaStream_t stream) {
  launch_dtype<32, 4>(g, stream, "mma_gemm_128x256x32");
}

// Twice the k depth per barrier and per batch of copies, one stage fewer (153 KiB).
void launch_mma_128x256x64(const DeviceGemm& g, cudaStream_t stream) {
  launch_dtype<64, 3>(g, stream, "mma_gemm_128x256x64");
}

}  // namespace ridgeline
