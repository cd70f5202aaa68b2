// The einsum permute on the GPU (einsum_permute_launchers.hpp). Two kernels:
//  - runs: the input's stride-1 index is still last in the output; each thread copies
//    elements along it, reads and writes both coalesced;
//  - tiles: it moved (a transpose): a block walks 32 x 32 tiles over the output's last
//    index and the output index that is the input's stride-1 one, through shared memory
//    (one column of padding against bank conflicts), reading along the input's stride-1
//    index and writing along the output's; the other indices number the tiles.
#include "../cuda_check.hpp"
#include "einsum_permute_launchers.hpp"

namespace ridgeline {

namespace {

constexpr int kTile = 32, kRows = 8;  // a tile's side; a block's rows of threads

// The input offset of output element `o` (dense, the output's order).
__device__ std::int64_t input_offset(const DevicePermute& p, std::int64_t o) {
  std::int64_t at = 0;
  for (int d = p.indices - 1; d >= 0; --d) {
    at += (o % p.extent[d]) * p.in_stride[d];
    o /= p.extent[d];
  }
  return at;
}

template <typename T>
__global__ void permute_runs(DevicePermute p, std::int64_t elements) {
  const T* in = static_cast<const T*>(p.in);
  T* out = static_cast<T*>(p.out);
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t o = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       o < elements; o += step)
    out[o] = in[input_offset(p, o)];
}

// `q`: the output index whose input stride is 1. Tiles: ceil(extent[last] / 32) x
// ceil(extent[q] / 32) per combination of the other indices.
template <typename T>
__global__ void permute_tiles(DevicePermute p, int q, std::int64_t tiles) {
  __shared__ T tile[kTile][kTile + 1];
  const T* in = static_cast<const T*>(p.in);
  T* out = static_cast<T*>(p.out);
  const int last = p.indices - 1;
  const std::int64_t n_last = p.extent[last], n_q = p.extent[q];
  const std::int64_t tiles_last = (n_last + kTile - 1) / kTile;
  const std::int64_t tiles_q = (n_q + kTile - 1) / kTile;
  // The output's dense strides of the last index (1) and of q.
  std::int64_t out_stride_q = 1;
  for (int d = p.indices - 1; d > q; --d) out_stride_q *= p.extent[d];
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    std::int64_t rest = t;
    const std::int64_t l0 = (rest % tiles_last) * kTile;
    rest /= tiles_last;
    const std::int64_t q0 = (rest % tiles_q) * kTile;
    rest /= tiles_q;
    // The other indices, from `rest`, the output's order: their offsets in and out.
    std::int64_t in_base = 0, out_base = 0, out_stride = 1;
    for (int d = p.indices - 1; d >= 0; --d) {
      if (d != last && d != q) {
        const std::int64_t i = rest % p.extent[d];
        rest /= p.extent[d];
        in_base += i * p.in_stride[d];
        out_base += i * out_stride;
      }
      out_stride *= p.extent[d];
    }
    // Read: along q (stride 1 in the input), one row of the tile per output-last value.
    for (int r = threadIdx.y; r < kTile; r += kRows) {
      const std::int64_t l = l0 + r, qq = q0 + threadIdx.x;
      if (l < n_last && qq < n_q) tile[r][threadIdx.x] = in[in_base + l * p.in_stride[last] + qq];
    }
    __syncthreads();
    // Write: along the output's last index.
    for (int r = threadIdx.y; r < kTile; r += kRows) {
      const std::int64_t qq = q0 + r, l = l0 + threadIdx.x;
      if (l < n_last && qq < n_q) out[out_base + qq * out_stride_q + l] = tile[threadIdx.x][r];
    }
    __syncthreads();
  }
}

template <typename T>
void launch_as(const DevicePermute& p, cudaStream_t stream) {
  std::int64_t elements = 1;
  int q = -1;
  for (int d = 0; d < p.indices; ++d) {
    elements *= p.extent[d];
    if (p.in_stride[d] == 1 && p.extent[d] > 1) q = d;
  }
  if (elements == 0) return;
  int last = p.indices - 1;  // the last index with an extent above 1: the output's runs
  while (last > 0 && p.extent[last] == 1) --last;
  if (q < 0 || q == last) {  // the stride-1 index stays last (or every extent is 1)
    const std::int64_t blocks = (elements + 255) / 256;
    permute_runs<T>
        <<<static_cast<unsigned>(blocks < 65535 * 32 ? blocks : 65535 * 32), 256, 0, stream>>>(
            p, elements);
    cuda_check_launch("permute_runs");
    return;
  }
  const std::int64_t tiles = elements / (p.extent[q] * p.extent[p.indices - 1]) *
                             ((p.extent[p.indices - 1] + kTile - 1) / kTile) *
                             ((p.extent[q] + kTile - 1) / kTile);
  permute_tiles<T><<<static_cast<unsigned>(tiles < 65535 * 32 ? tiles : 65535 * 32),
                     dim3(kTile, kRows), 0, stream>>>(p, q, tiles);
  cuda_check_launch("permute_tiles");
}

}  // namespace

void launch_einsum_permute(const DevicePermute& p, cudaStream_t stream) {
  if (p.element_bytes == 8)
    launch_as<double>(p, stream);
  else
    launch_as<float>(p, stream);
}

}  // namespace ridgeline
