// Tensor-core GEMM on Hopper's own path (sm_90a): wgmma fed by the tensor memory
// accelerator, one producer warpgroup and two consumer warpgroups (warp specialisation).
// bf16 or f16 inputs, f32 accumulators and C; 128x256 block tiles, 64-deep k slices in a
// pipeline of STAGES shared-memory stages. The producer's one thread issues each stage's
// bulk tensor copies (A: 128 x 64, B: four boxes of 64 x 64, all with the 128-byte swizzle
// wgmma reads) and they complete on the stage's `full` barrier; each consumer warpgroup
// multiplies its 64 rows of A by the whole B slice (four m64n256k16 per slice, 128 f32
// accumulators a thread) and releases the stage on its `empty` barrier. B is row-major
// (k x n): N-major for wgmma, read with its transpose flag. Row-major, NN; n and k multiples
// of 8 (the copy engine's 16-byte strides), any m; the copy engine fills what lies past an
// edge with zeros. gemm_bias_act's epilogue as in the mma.sync kernel. Persistent: one block
// per multiprocessor walks the tiles, and the producer's slices run on across tiles through
// the one ring of stages, so the next tile's operands arrive while the consumers store this
// one's C (at k = 256 a tile is 4 slices of products and 128 KiB of C). C leaves through
// shared memory: each consumer warpgroup writes 64 x 32 chunks of f32 into one of its two
// swizzled buffers and the copy engine stores each chunk in whole 128-byte lines (clipping
// at the matrix's edges), while the warps fill the other buffer or start the next tile.
// gemm_bias_act's bias is loaded when a tile starts and shared through shared memory after
// its products: read in the epilogue, its loads were half the consumers' stalls.
// Built for sm_90a only (its own CMake target): the code runs on compute capability 9.0.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../cp_async.cuh"
#include "../cuda_check.hpp"
#include "gemm_epilogue.cuh"
#include "launchers.hpp"

namespace ridgeline {

namespace {

using Index = long long;

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 4;
constexpr int CONSUMERS = 2;  // warpgroups of 64 rows of the block tile each
constexpr int THREADS = 128 * (1 + CONSUMERS);
constexpr int SWIZZLE = 128;                        // bytes: one row of a swizzled box
constexpr int A_BYTES = BM * BK * 2;                // 128 rows of 128 bytes
constexpr int B_BOX = SWIZZLE / 2;                  // columns of B per copy
constexpr int B_BOX_BYTES = BK * B_BOX * 2;         // 64 k rows of 128 bytes
constexpr int STAGE_BYTES = A_BYTES + BK * BN * 2;  // 48 KiB
constexpr int C_COLS = SWIZZLE / 4;                 // f32 columns of C per stored chunk
constexpr int C_CHUNK_BYTES = 64 * SWIZZLE;         // a warpgroup's 64 rows of them: 8 KiB
constexpr int C_BUFFERS = 2;                        // per consumer warpgroup
// The stages start on a 1024-byte boundary (the swizzle's period), then C's buffers (on the
// same period), then the barriers: 225 KiB of the multiprocessor's 227.
constexpr std::size_t SHARED_BYTES = 1024 + STAGES * STAGE_BYTES +
                                     CONSUMERS * C_BUFFERS * C_CHUNK_BYTES + BN * sizeof(float) +
                                     2 * STAGES * sizeof(std::uint64_t);
static_assert(SHARED_BYTES <= 227 * 1024, "more than a Hopper block's shared memory");

__device__ __forceinline__ void barrier_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count));
}
__device__ __forceinline__ void barrier_expect_bytes(std::uint64_t* bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)),
      "r"(bytes)
      : "memory");
}
__device__ __forceinline__ void barrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
}
// Returns once the barrier's phase of this parity has completed.
__device__ __forceinline__ void barrier_wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

// One box of a 2-D tensor map into shared memory; its bytes complete on `bar`.
__device__ __forceinline__ void copy_box(void* dst, const CUtensorMap* map, int inner, int outer,
                                         std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
      "%3}], [%4];\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(shared_address(bar))
      : "memory");
}

// One chunk of shared memory to a box of C; the copy engine reads the chunk asynchronously
// (the thread's bulk group) and writes only the part of the box inside the matrix.
__device__ __forceinline__ void store_box(const CUtensorMap* map, const void* src, int inner,
                                          int outer) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(inner), "r"(outer), "r"(shared_address(src))
      : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
// Returns once at most `Pending` of this thread's stores still read shared memory.
template <int Pending>
__device__ __forceinline__ void wait_store_reads() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
}
// The 256 threads of both consumer warpgroups (named barrier 3).
__device__ __forceinline__ void sync_consumers() {
  asm volatile("bar.sync 3, 256;\n" ::: "memory");
}
// The 128 threads of consumer warpgroup `consumer` (named barriers 1 and 2; 0 is the block's).
__device__ __forceinline__ void sync_warpgroup(int consumer) {
  asm volatile("bar.sync %0, 128;\n" ::"r"(1 + consumer) : "memory");
}

// wgmma's shared-memory matrix descriptor with the 128-byte swizzle. K-major A: `stride` is
// the step between groups of 8 rows (1024 bytes), `leading` unused. N-major B: `leading` is
// the step between 64-column boxes, `stride` between groups of 8 k rows.
__device__ __forceinline__ std::uint64_t descriptor(const void* p, unsigned leading,
                                                    unsigned stride) {
  return static_cast<std::uint64_t>((shared_address(p) & 0x3FFFF) >> 4) |
         static_cast<std::uint64_t>(leading >> 4) << 16 |
         static_cast<std::uint64_t>(stride >> 4) << 32 | 1ull << 62;
}

#define RL_ACC8(i)                                                                            \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define RL_WGMMA_M64N256K16(TYPE)                                                                \
  asm volatile(                                                                                  \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                              \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." TYPE "." TYPE                               \
      " {"                                                                                       \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                   \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "                   \
      "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "                   \
      "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "                   \
      "%58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, "                   \
      "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "                   \
      "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, "                   \
      "%100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "                 \
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, "                 \
      "%124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 1;\n}\n"                                 \
      : RL_ACC8(0), RL_ACC8(8), RL_ACC8(16), RL_ACC8(24), RL_ACC8(32), RL_ACC8(40), RL_ACC8(48), \
        RL_ACC8(56), RL_ACC8(64), RL_ACC8(72), RL_ACC8(80), RL_ACC8(88), RL_ACC8(96),            \
        RL_ACC8(104), RL_ACC8(112), RL_ACC8(120)                                                 \
      : "l"(a), "l"(b), "n"(1))

// d (64 x 256 of this warpgroup) += A (64 x 16, K-major) B (16 x 256, N-major).
template <typename T>
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t a,
                                                 std::uint64_t b) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>)
    RL_WGMMA_M64N256K16("bf16");
  else
    RL_WGMMA_M64N256K16("f16");
}
#undef RL_WGMMA_M64N256K16
#undef RL_ACC8

// Tile t of grid_m x grid_n block tiles: groups of 8 tile rows, column by column within a
// group (as the mma.sync kernel), so the tiles resident at once share A and B panels in L2.
__device__ __forceinline__ void tile_origin(int t, int grid_m, int grid_n, int& row0, int& col0) {
  constexpr int GROUP = 8;
  const int first_m = t / (GROUP * grid_n) * GROUP;
  const int group_rows = min(grid_m - first_m, GROUP);
  const int in_group = t % (GROUP * grid_n);
  row0 = (first_m + in_group % group_rows) * BM;
  col0 = in_group / group_rows * BN;
}

template <typename T, Epilogue EPI>
__global__ void __launch_bounds__(THREADS, 1)
    wgmma_gemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
               const __grid_constant__ CUtensorMap map_c, Index n, Index k, const T* bias,
               int grid_m, int grid_n) {
  extern __shared__ unsigned char shared_raw[];
  unsigned char* stages = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(shared_raw) + 1023) & ~std::uintptr_t{1023});
  unsigned char* c_buffers = stages + STAGES * STAGE_BYTES;
  float* tile_bias = reinterpret_cast<float*>(c_buffers + CONSUMERS * C_BUFFERS * C_CHUNK_BYTES);
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(tile_bias + BN);
  std::uint64_t* empty = full + STAGES;
  const int warpgroup = threadIdx.x / 128, in_group = threadIdx.x % 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      barrier_init(&full[s], 1);               // the producer's expect, then the bytes
      barrier_init(&empty[s], CONSUMERS * 4);  // one arrival per consumer warp
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  const int slices = static_cast<int>((k + BK - 1) / BK);
  const int tiles = grid_m * grid_n;
  int row0 = 0, col0 = 0;

  if (warpgroup == 0) {  // producer: few registers, one thread issues the copies
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (in_group == 0) {
      int issued = 0;  // slices over every tile so far: the ring's position and phase
      for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
        tile_origin(t, grid_m, grid_n, row0, col0);
        for (int s = 0; s < slices; ++s, ++issued) {
          const int st = issued % STAGES;
          if (issued >= STAGES) barrier_wait(&empty[st], (issued / STAGES - 1) & 1);
          unsigned char* a_stage = stages + st * STAGE_BYTES;
          barrier_expect_bytes(&full[st], STAGE_BYTES);
          copy_box(a_stage, &map_a, s * BK, row0, &full[st]);
#pragma unroll
          for (int j = 0; j < BN / B_BOX; ++j)
            copy_box(a_stage + A_BYTES + j * B_BOX_BYTES, &map_b, col0 + j * B_BOX, s * BK,
                     &full[st]);
        }
      }
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1, lane = in_group % 32, warp = in_group / 32;
  unsigned char* my_buffers = c_buffers + consumer * C_BUFFERS * C_CHUNK_BYTES;
  int used = 0;    // slices consumed over every tile so far, as the producer counts them
  int chunks = 0;  // chunks of C stored so far: the buffer's turn
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
    tile_origin(t, grid_m, grid_n, row0, col0);
    // The tile's bias: each consumer thread loads one column's now, so that the load's
    // latency passes under the products, and shares it after them.
    const int bias_column = consumer * 128 + in_group;
    float my_bias = 0.0f;
    if constexpr (EPI != Epilogue::none)
      if (col0 + bias_column < n) my_bias = cuda::to_f(bias[col0 + bias_column]);
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;
    for (int s = 0; s < slices; ++s, ++used) {
      const int st = used % STAGES;
      barrier_wait(&full[st], (used / STAGES) & 1);
      const unsigned char* a_tile = stages + st * STAGE_BYTES + consumer * 64 * SWIZZLE;
      const unsigned char* b_tile = stages + st * STAGE_BYTES + A_BYTES;
      asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)  // 16 k: 32 bytes along A's rows, 16 rows of B
        wgmma_m64n256k16<T>(d, descriptor(a_tile + kk * 32, 16, 1024),
                            descriptor(b_tile + kk * 16 * SWIZZLE, B_BOX_BYTES, 1024));
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
      if (lane == 0) barrier_arrive(&empty[st]);
    }

    if constexpr (EPI != Epilogue::none) {
      sync_consumers();  // every consumer is past the last tile's epilogue
      tile_bias[bias_column] = my_bias;
      sync_consumers();
    }
    // Accumulators of m64nNk16: warp w holds rows 16w + lane/4 (and 8 on), each 8 columns j
    // as d[4j], d[4j + 1] at 2 (lane % 4) + {0, 1}, d[4j + 2], d[4j + 3] eight rows on. A
    // chunk's row r is 128 bytes at 128 r, its 16-byte units in the order unit ^ (r % 8)
    // (the 128-byte swizzle the store's tensor map undoes): each store instruction's 32
    // lanes then fill 256 bytes in two passes over the banks.
#pragma unroll
    for (int q = 0; q < BN / C_COLS; ++q, ++chunks) {
      unsigned char* buffer = my_buffers + (chunks % C_BUFFERS) * C_CHUNK_BYTES;
      if (in_group == 0) wait_store_reads<C_BUFFERS - 1>();  // this buffer's last store read it
      sync_warpgroup(consumer);
#pragma unroll
      for (int jj = 0; jj < C_COLS / 8; ++jj) {
        const int j = q * (C_COLS / 8) + jj;
        const int col = j * 8 + 2 * (lane % 4);  // within the tile
        const float2 b = EPI == Epilogue::none ? make_float2(0.0f, 0.0f)
                                               : *reinterpret_cast<const float2*>(&tile_bias[col]);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = warp * 16 + lane / 4 + h * 8;
          const int unit = (jj * 2 + (lane % 4) / 2) ^ (r % 8);
          // Past n the store leaves the columns out (their bias was staged as 0).
          *reinterpret_cast<float2*>(buffer + r * SWIZZLE + unit * 16 + (lane % 2) * 8) =
              gemm_epilogue_biased<EPI>(d[4 * j + 2 * h], d[4 * j + 2 * h + 1], b);
        }
      }
      asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // visible to the copy engine
      sync_warpgroup(consumer);
      if (in_group == 0)
        store_box(&map_c, buffer, static_cast<int>(col0) + q * C_COLS,
                  static_cast<int>(row0) + consumer * 64);
    }
  }
  if (in_group == 0) wait_store_reads<0>();  // the block's shared memory outlives the reads
}

// cuTensorMapEncodeTiled from the driver, through the runtime (no link to libcuda).
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    RIDGELINE_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                    cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !fn)
      throw std::runtime_error(
          "the driver has no cuTensorMapEncodeTiled (CUDA 12 or newer needed)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// A row-major rows x cols matrix (row length ld) read or written in boxes of box_rows x
// box_cols: A and B in bf16 or f16, C in f32.
CUtensorMap tensor_map(const void* data, CUtensorMapDataType type, Index rows, Index cols, Index ld,
                       unsigned box_rows, unsigned box_cols) {
  CUtensorMap map{};
  const cuuint64_t bytes = type == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 ? 4 : 2;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * bytes};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(
      &map, type, 2, const_cast<void*>(data), dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(r) +
                             " (pointer and row length must be 16-byte aligned)");
  return map;
}

// The current device's multiprocessors, asked once (a process uses one GPU).
int multiprocessors() {
  static const int count = [] {
    int device = 0, n = 0;
    RIDGELINE_CUDA(cudaGetDevice(&device));
    RIDGELINE_CUDA(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
    return n;
  }();
  return count;
}

template <typename T, Epilogue EPI>
void launch_typed(const DeviceGemm& g, cudaStream_t stream) {
  static bool configured = false;  // the dynamic shared-memory limit, once per instance
  if (!configured) {
    RIDGELINE_CUDA(cudaFuncSetAttribute(wgmma_gemm<T, EPI>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(SHARED_BYTES)));
    configured = true;
  }
  const CUtensorMapDataType input =
      g.dtype == DType::bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  const CUtensorMap map_a = tensor_map(g.a, input, g.m, g.k, g.lda, BM, BK);
  const CUtensorMap map_b = tensor_map(g.b, input, g.k, g.n, g.ldb, BK, B_BOX);
  const CUtensorMap map_c =
      tensor_map(g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g.m, g.n, g.ldc, 64, C_COLS);
  const int grid_n = static_cast<int>((g.n + BN - 1) / BN),
            grid_m = static_cast<int>((g.m + BM - 1) / BM);
  // One block per multiprocessor (its shared memory allows no second), none idle.
  const int blocks = std::min(grid_m * grid_n, multiprocessors());
  wgmma_gemm<T, EPI><<<blocks, THREADS, SHARED_BYTES, stream>>>(
      map_a, map_b, map_c, g.n, g.k, static_cast<const T*>(g.bias), grid_m, grid_n);
  cuda_check_launch("wgmma_gemm_128x256x64");
}

template <typename T>
void launch_epilogue(const DeviceGemm& g, cudaStream_t stream) {
  switch (g.epilogue) {
    case Epilogue::none:
      return launch_typed<T, Epilogue::none>(g, stream);
    case Epilogue::bias_relu:
      return launch_typed<T, Epilogue::bias_relu>(g, stream);
    case Epilogue::bias_gelu_tanh:
      return launch_typed<T, Epilogue::bias_gelu_tanh>(g, stream);
  }
}

}  // namespace

void launch_wgmma_128x256x64(const DeviceGemm& g, cudaStream_t stream) {
  if (g.dtype == DType::bf16)
    launch_epilogue<__nv_bfloat16>(g, stream);
  else
    launch_epilogue<__half>(g, stream);
}

}  // namespace ridgeline
