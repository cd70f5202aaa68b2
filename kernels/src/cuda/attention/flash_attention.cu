// Flash attention (FlashAttention-2's loop order) on mma.sync m16n8k16, bf16 operands, f32
// accumulators: a block of WARPS warps takes 16 x WARPS queries of one head, each warp 16 of
// them, and walks the keys in blocks of 64. K and V blocks come into shared memory by cp.async, the
// next one while the tensor cores work on this one; per block a warp computes its 16 x 64
// scores S = Q K^T in registers, updates each row's running max and sum (the online
// softmax), rescales its O accumulators and adds P V, P passed from the score accumulators
// to the A operand in registers. The scores never reach memory: HBM traffic is Q, K, V read
// and O written. Causal: key blocks past the query block's diagonal are not visited, and
// keys past a query's own position are masked in the block on the diagonal.
#include <cuda_bf16.h>

#include <cmath>
#include <cstdlib>

#include "../cp_async.cuh"
#include "../cuda_check.hpp"
#include "attention_launchers.hpp"

namespace ridgeline {

namespace {

using Index = long long;
using bf16 = __nv_bfloat16;
constexpr int kBlockN = 64;
constexpr float kNegInf = -INFINITY;

// A block's geometry: WARPS warps of 16 queries each, keys in blocks of kBlockN.
template <int D, int WARPS>
struct Tile {
  static constexpr int threads = 32 * WARPS, block_m = 16 * WARPS;
  static constexpr int LD = D + 8;  // padded rows: the 8 rows an ldmatrix reads hit 8 bank groups
  static constexpr int q_elements = block_m * LD, kv_elements = kBlockN * LD;
  // Q, then two stages of K, then two of V.
  static constexpr std::size_t shared_bytes = (q_elements + 4 * kv_elements) * sizeof(bf16);
};

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}
__device__ __forceinline__ void mma_bf16(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ unsigned pack_bf16(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const unsigned*>(&v);
}

// ROWS rows of D from `src` (rows from row0, seq of them) into `dst`, rows past seq zeroed,
// by THREADS threads.
template <int D, int ROWS, int THREADS>
__device__ __forceinline__ void load_tile(bf16* dst, const bf16* src, int row0, int seq) {
  constexpr int LD = D + 8;
  for (int i = threadIdx.x; i < ROWS * D / 8; i += THREADS) {
    const int r = i / (D / 8), c = (i % (D / 8)) * 8;
    const bool inside = row0 + r < seq;
    copy16_async(&dst[r * LD + c], inside ? &src[static_cast<Index>(row0 + r) * D + c] : src,
                 inside);
  }
}

// Up to head_dim 64 a thread gets at most 128 registers, so 16 warps fit a multiprocessor's
// 64 Ki registers (at 129, what the compiler chose for head_dim 64, 12 did); 0, no minimum.
template <int D, int WARPS>
constexpr int min_blocks() {
  return D <= 64 ? 16 / WARPS : 0;
}

template <int D, bool CAUSAL, int WARPS>
__global__ void __launch_bounds__(32 * WARPS, (min_blocks<D, WARPS>()))
    flash_attention(const bf16* q, const bf16* k, const bf16* v, bf16* o, int seq,
                    float scale_log2) {
  extern __shared__ __align__(128) unsigned char shared[];
  using T = Tile<D, WARPS>;
  constexpr int LD = T::LD, E = T::kv_elements, kBlockM = T::block_m, kThreads = T::threads;
  bf16* qs = reinterpret_cast<bf16*>(shared);
  bf16* ks = qs + T::q_elements;  // two stages
  bf16* vs = ks + 2 * E;          // two stages
  const Index head = static_cast<Index>(blockIdx.y) * seq * D;
  const int m0 = static_cast<int>(blockIdx.x) * kBlockM;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int keys = CAUSAL ? min(seq, m0 + kBlockM) : seq;
  const int blocks = (keys + kBlockN - 1) / kBlockN;

  load_tile<D, kBlockM, kThreads>(qs, q + head, m0, seq);
  load_tile<D, kBlockN, kThreads>(ks, k + head, 0, seq);
  load_tile<D, kBlockN, kThreads>(vs, v + head, 0, seq);
  commit_copies();

  unsigned qf[D / 16][4];
  float acc[D / 8][4];
#pragma unroll
  for (int j = 0; j < D / 8; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;
  float row_max[2] = {kNegInf, kNegInf}, row_sum[2] = {0.0f, 0.0f};
  const int g = lane / 4, t = lane % 4;
  const int query[2] = {m0 + warp * 16 + g, m0 + warp * 16 + g + 8};

  for (int b = 0; b < blocks; ++b) {
    if (b + 1 < blocks) {  // the next key block, into the other stage
      load_tile<D, kBlockN, kThreads>(ks + ((b + 1) % 2) * E, k + head, (b + 1) * kBlockN, seq);
      load_tile<D, kBlockN, kThreads>(vs + ((b + 1) % 2) * E, v + head, (b + 1) * kBlockN, seq);
    }
    commit_copies();
    wait_copies<1>();  // this block's group has landed (Q too, with the first)
    __syncthreads();
    if (b == 0)
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk)
        ldmatrix_x4(qf[kk], qs + (warp * 16 + lane % 16) * LD + kk * 16 + (lane / 16) * 8);
    const bf16* kt = ks + (b % 2) * E;
    const bf16* vt = vs + (b % 2) * E;

    // S = Q K^T: 16 queries x 64 keys per warp, as 8 n-tiles of 8 keys.
    float s[8][4];
#pragma unroll
    for (int n = 0; n < 8; ++n)
#pragma unroll
      for (int e = 0; e < 4; ++e) s[n][e] = 0.0f;
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
#pragma unroll
      for (int p = 0; p < 4; ++p) {  // keys p*16 ... p*16+15: two n-tiles
        unsigned kf[4];
        ldmatrix_x4(
            kf, kt + (p * 16 + lane % 8 + (lane / 16) * 8) * LD + kk * 16 + ((lane / 8) % 2) * 8);
        mma_bf16(s[2 * p], qf[kk], kf[0], kf[1]);
        mma_bf16(s[2 * p + 1], qf[kk], kf[2], kf[3]);
      }

    // Mask (keys past seq; causal: past the query), then the online softmax per row: this
    // thread holds columns 2t, 2t+1 of each n-tile for rows g (e = 0, 1) and g + 8 (e = 2, 3).
    const int key0 = b * kBlockN;
    float tile_max[2] = {kNegInf, kNegInf};
#pragma unroll
    for (int n = 0; n < 8; ++n)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int key = key0 + n * 8 + 2 * t + (e % 2);
        if (key >= seq || (CAUSAL && key > query[e / 2])) s[n][e] = kNegInf;
        tile_max[e / 2] = fmaxf(tile_max[e / 2], s[n][e]);
      }
    float alpha[2], base[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      tile_max[r] = fmaxf(tile_max[r], __shfl_xor_sync(0xffffffffu, tile_max[r], 1));
      tile_max[r] = fmaxf(tile_max[r], __shfl_xor_sync(0xffffffffu, tile_max[r], 2));
      const float m = fmaxf(row_max[r], tile_max[r]);
      base[r] = m == kNegInf ? 0.0f : m * scale_log2;  // a row with nothing seen yet stays 0
      alpha[r] = exp2f(row_max[r] * scale_log2 - base[r]);
      row_max[r] = m;
      row_sum[r] *= alpha[r];
    }
#pragma unroll
    for (int n = 0; n < 8; ++n)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        s[n][e] = exp2f(s[n][e] * scale_log2 - base[e / 2]);
        row_sum[e / 2] += s[n][e];
      }
#pragma unroll
    for (int j = 0; j < D / 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[j][e] *= alpha[e / 2];

        // O += P V: P's accumulators are the A operand of 16-key steps; V's fragments by
        // ldmatrix.trans from its row-major block.
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      const unsigned pf[4] = {pack_bf16(s[2 * kk][0], s[2 * kk][1]),
                              pack_bf16(s[2 * kk][2], s[2 * kk][3]),
                              pack_bf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                              pack_bf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int jj = 0; jj < D / 16; ++jj) {
        unsigned vf[4];
        ldmatrix_x4_trans(vf, vt + (kk * 16 + lane % 16) * LD + jj * 16 + (lane / 16) * 8);
        mma_bf16(acc[2 * jj], pf, vf[0], vf[1]);
        mma_bf16(acc[2 * jj + 1], pf, vf[2], vf[3]);
      }
    }
    __syncthreads();  // every warp is done with this stage before it is loaded again
  }
  wait_copies<0>();

#pragma unroll
  for (int r = 0; r < 2; ++r) {
    row_sum[r] += __shfl_xor_sync(0xffffffffu, row_sum[r], 1);
    row_sum[r] += __shfl_xor_sync(0xffffffffu, row_sum[r], 2);
  }
  bf16* oh = o + head;
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    if (query[r] >= seq) continue;
    const float inv = 1.0f / row_sum[r];
#pragma unroll
    for (int j = 0; j < D / 8; ++j)
      *reinterpret_cast<__nv_bfloat162*>(&oh[static_cast<Index>(query[r]) * D + j * 8 + 2 * t]) =
          __floats2bfloat162_rn(acc[j][2 * r] * inv, acc[j][2 * r + 1] * inv);
  }
}

template <int D, bool CAUSAL, int WARPS>
void launch_typed(const DeviceAttention& a, cudaStream_t stream) {
  using T = Tile<D, WARPS>;
  constexpr std::size_t bytes = T::shared_bytes;
  static bool configured = false;  // the dynamic shared-memory limit, once per instance
  if (!configured) {
    RIDGELINE_CUDA(cudaFuncSetAttribute(flash_attention<D, CAUSAL, WARPS>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes)));
    configured = true;
  }
  const dim3 grid(static_cast<unsigned>((a.seq + T::block_m - 1) / T::block_m),
                  static_cast<unsigned>(a.heads));
  const float scale_log2 = 1.4426950408889634f / std::sqrt(static_cast<float>(D));
  flash_attention<D, CAUSAL, WARPS><<<grid, T::threads, bytes, stream>>>(
      static_cast<const bf16*>(a.q), static_cast<const bf16*>(a.k), static_cast<const bf16*>(a.v),
      static_cast<bf16*>(a.o), static_cast<int>(a.seq), scale_log2);
  cuda_check_launch("flash_attention");
}

template <int D, int WARPS>
void launch_warps(const DeviceAttention& a, cudaStream_t stream) {
  if (a.causal)
    launch_typed<D, true, WARPS>(a, stream);
  else
    launch_typed<D, false, WARPS>(a, stream);
}

template <int D>
void launch_head_dim(const DeviceAttention& a, cudaStream_t stream) {
  if (flash_attention_warps(D) == 8)
    launch_warps<D, 8>(a, stream);
  else
    launch_warps<D, 4>(a, stream);
}

}  // namespace

int flash_attention_warps(std::int64_t head_dim) {
  // RIDGELINE_FLASH_WARPS (4 or 8) overrides the choice, for tuning experiments.
  static const int forced = [] {
    const char* v = std::getenv("RIDGELINE_FLASH_WARPS");
    const int w = v ? std::atoi(v) : 0;
    return w == 4 || w == 8 ? w : 0;
  }();
  if (forced) return forced;
  // Eight warps share each K and V block among 128 queries. On the H100 (b4 h16 seq 4096,
  // 2026-11-27) that ran head_dim 64 in 1244 us against 1329 at four warps (causal 730 against
  // 742); at 128 neither led by more than 3% (2535 / 2599 us, causal 1497 / 1480), where
  // registers hold a multiprocessor to 8 warps either way: four stay.
  return head_dim <= 64 ? 8 : 4;
}

bool flash_attention_head_dim(std::int64_t head_dim) {
  return head_dim == 32 || head_dim == 64 || head_dim == 128;
}

void launch_flash_attention(const DeviceAttention& a, cudaStream_t stream) {
  switch (a.head_dim) {
    case 32:
      return launch_head_dim<32>(a, stream);
    case 64:
      return launch_head_dim<64>(a, stream);
    default:
      return launch_head_dim<128>(a, stream);
  }
}

}  // namespace ridgeline
