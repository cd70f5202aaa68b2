// The memory-bound ops unfused (rowwise_launchers.hpp): one kernel per pass of the op's
// unfused chain, each reading and writing device memory, as an eager framework runs them;
// and gemm_bias_act's passes after the GEMM.
#include "row_kernels.cuh"

namespace ridgeline {

namespace {

using namespace rows;

// --- unfused: one kernel per pass ----------------------------------------------------

enum class Reduce { max, sum, mean, mean_of_squares };

// One value per row of `a`, stored in the problem's dtype like the CPU's intermediates.
template <typename T, int V, Reduce R>
__global__ void __launch_bounds__(kThreads) row_reduce(const T* a, T* out, Index cols) {
  const T* ar = a + static_cast<Index>(blockIdx.x) * cols;
  float acc = R == Reduce::max ? kNegInf : 0.0f;
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V];
    load<T, V>(ar + c, v);
#pragma unroll
    for (int i = 0; i < V; ++i) {
      if constexpr (R == Reduce::max)
        acc = fmaxf(acc, v[i]);
      else if constexpr (R == Reduce::mean_of_squares)
        acc += v[i] * v[i];
      else
        acc += v[i];
    }
  }
  float r = R == Reduce::max ? cuda::block_reduce(acc, cuda::Max{}, kNegInf)
                             : cuda::block_reduce(acc, cuda::Sum{}, 0);
  if (R == Reduce::mean || R == Reduce::mean_of_squares) r /= static_cast<float>(cols);
  if (threadIdx.x == 0) out[blockIdx.x] = cuda::from_f<T>(r);
}

enum class Map { subtract, exp, divide, normalise, scale_shift, square, scale };

// out = f(a, the row's value, gamma, beta) over one row per block.
template <typename T, int V, Map M>
__global__ void __launch_bounds__(kThreads) row_map(const T* a, const T* row, const T* gamma,
                                                    const T* beta, T* out, Index cols, float eps) {
  const Index offset = static_cast<Index>(blockIdx.x) * cols;
  float r = 0.0f;
  if constexpr (M == Map::subtract || M == Map::divide || M == Map::normalise)
    r = cuda::to_f(row[blockIdx.x]);
  if constexpr (M == Map::normalise) r = 1.0f / sqrtf(r + eps);
  for (Index c = threadIdx.x * V; c < cols; c += kThreads * V) {
    float v[V], g[V], b[V];
    load<T, V>(a + offset + c, v);
    if constexpr (M == Map::scale_shift || M == Map::scale) load<T, V>(gamma + c, g);
    if constexpr (M == Map::scale_shift) load<T, V>(beta + c, b);
#pragma unroll
    for (int i = 0; i < V; ++i) {
      if constexpr (M == Map::subtract)
        v[i] -= r;
      else if constexpr (M == Map::exp)
        v[i] = expf(v[i]);
      else if constexpr (M == Map::divide)
        v[i] /= r;
      else if constexpr (M == Map::normalise)
        v[i] *= r;
      else if constexpr (M == Map::scale_shift)
        v[i] = v[i] * g[i] + b[i];
      else if constexpr (M == Map::square)
        v[i] *= v[i];
      else
        v[i] *= g[i];
    }
    store<T, V>(out + offset + c, v);
  }
}

template <typename TB>
__global__ void __launch_bounds__(kThreads) bias_rows(float* c, const TB* bias, Index n) {
  float* cr = c + static_cast<Index>(blockIdx.x) * n;
  for (Index j = threadIdx.x; j < n; j += kThreads) cr[j] += cuda::to_f(bias[j]);
}

__global__ void __launch_bounds__(kThreads)
    widen(const __nv_bfloat16* in, float* out, Index elements) {
  const Index stride = static_cast<Index>(gridDim.x) * kThreads;
  for (Index i = static_cast<Index>(blockIdx.x) * kThreads + threadIdx.x; i < elements; i += stride)
    out[i] = __bfloat162float(in[i]);
}

template <cuda::Act A>
__global__ void __launch_bounds__(kThreads) activation(float* c, Index elements) {
  const Index stride = static_cast<Index>(gridDim.x) * kThreads;
  for (Index i = static_cast<Index>(blockIdx.x) * kThreads + threadIdx.x; i < elements; i += stride)
    c[i] = cuda::activate<A>(c[i]);
}

struct Reducer {
  const DeviceRows& r;
  cudaStream_t s;
  template <Reduce R>
  void run(const void* a, void* out) const {
    with_type_and_width(r.dtype, r.cols, [&](auto access) {
      using T = typename decltype(access)::type;
      constexpr int V = decltype(access)::width;
      row_reduce<T, V, R><<<row_blocks(r.rows), kThreads, 0, s>>>(as<T>(a), as<T>(out), r.cols);
    });
    cuda_check_launch("row_reduce");
  }
};

template <Map M>
void map_pass(const DeviceRows& r, const void* a, const void* row, void* out, float eps,
              cudaStream_t s) {
  with_type_and_width(r.dtype, r.cols, [&](auto access) {
    using T = typename decltype(access)::type;
    constexpr int V = decltype(access)::width;
    row_map<T, V, M><<<row_blocks(r.rows), kThreads, 0, s>>>(
        as<T>(a), as<T>(row), as<T>(r.gamma), as<T>(r.beta), as<T>(out), r.cols, eps);
  });
  cuda_check_launch("row_map");
}

}  // namespace

std::int64_t rowwise_scratch_elements(std::int64_t rows, std::int64_t cols) {
  return rows * cols + 2 * rows;
}

// max; t = x - max; t = exp(t); sum; y = t / sum (core/src/op_definitions/softmax.cpp).
void launch_softmax_unfused(const DeviceRows& r, const DeviceScratch& t, cudaStream_t s) {
  const Reducer reduce{r, s};
  reduce.run<Reduce::max>(r.x, t.row_a);
  map_pass<Map::subtract>(r, r.x, t.row_a, t.full, 0, s);
  map_pass<Map::exp>(r, t.full, nullptr, t.full, 0, s);
  reduce.run<Reduce::sum>(t.full, t.row_b);
  map_pass<Map::divide>(r, t.full, t.row_b, r.y, 0, s);
}

// mean; d = x - mean; var = mean(d^2); d = d / sqrt(var + eps); y = d gamma + beta.
void launch_layernorm_unfused(const DeviceRows& r, const DeviceScratch& t, float eps,
                              cudaStream_t s) {
  const Reducer reduce{r, s};
  reduce.run<Reduce::mean>(r.x, t.row_a);
  map_pass<Map::subtract>(r, r.x, t.row_a, t.full, 0, s);
  reduce.run<Reduce::mean_of_squares>(t.full, t.row_b);
  map_pass<Map::normalise>(r, t.full, t.row_b, t.full, eps, s);
  map_pass<Map::scale_shift>(r, t.full, nullptr, r.y, 0, s);
}

// s = x^2; ms = mean(s); s = x / sqrt(ms + eps); y = s gamma.
void launch_rmsnorm_unfused(const DeviceRows& r, const DeviceScratch& t, float eps,
                            cudaStream_t s) {
  const Reducer reduce{r, s};
  map_pass<Map::square>(r, r.x, nullptr, t.full, 0, s);
  reduce.run<Reduce::mean>(t.full, t.row_a);
  map_pass<Map::normalise>(r, r.x, t.row_a, t.full, eps, s);
  map_pass<Map::scale>(r, t.full, nullptr, r.y, 0, s);
}

// Step 1 from x into y, every later step y in place.
void launch_eltwise_chain_unfused(const DeviceRows& r, int length, cudaStream_t s) {
  for (int i = 0; i < length; ++i) chain_launch(r, i, i + 1, i == 0 ? r.x : r.y, s);
}

void launch_bias_pass(float* c, const void* bias, DType bias_dtype, std::int64_t m, std::int64_t n,
                      cudaStream_t s) {
  if (bias_dtype == DType::bf16)
    bias_rows<<<row_blocks(m), kThreads, 0, s>>>(c, as<__nv_bfloat16>(bias), n);
  else
    bias_rows<<<row_blocks(m), kThreads, 0, s>>>(c, as<float>(bias), n);
  cuda_check_launch("bias_rows");
}

void launch_widen_bf16(const void* in, float* out, std::int64_t elements, cudaStream_t s) {
  widen<<<stride_blocks(elements), kThreads, 0, s>>>(as<__nv_bfloat16>(in), out, elements);
  cuda_check_launch("widen");
}

void launch_activation_pass(float* c, std::int64_t elements, int act, cudaStream_t s) {
  if (act == static_cast<int>(cuda::Act::relu))
    activation<cuda::Act::relu><<<stride_blocks(elements), kThreads, 0, s>>>(c, elements);
  else
    activation<cuda::Act::gelu_tanh><<<stride_blocks(elements), kThreads, 0, s>>>(c, elements);
  cuda_check_launch("activation");
}

}  // namespace ridgeline
