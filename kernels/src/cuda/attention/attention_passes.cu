// The element passes of attention's unfused chain on the GPU (attention_launchers.hpp); its
// GEMMs are cuBLAS's and its softmax the row-wise softmax kernel.
#include "../rowwise/row_kernels.cuh"
#include "attention_launchers.hpp"

namespace ridgeline {

namespace {

using namespace rows;

template <typename T>
__global__ void __launch_bounds__(kThreads) scale(const T* in, T* out, Index n, float factor) {
  const Index stride = static_cast<Index>(gridDim.x) * kThreads;
  for (Index i = static_cast<Index>(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride)
    out[i] = cuda::from_f<T>(cuda::to_f(in[i]) * factor);
}

// One block per row of S (query i of one head): every entry read, those past i set to -inf.
template <typename T>
__global__ void __launch_bounds__(kThreads) causal_mask(T* s, Index seq) {
  const Index row = blockIdx.x;
  const Index query = row % seq;
  T* r = s + row * seq;
  for (Index j = threadIdx.x; j < seq; j += kThreads) {
    const T x = r[j];
    r[j] = j > query ? cuda::from_f<T>(kNegInf) : x;
  }
}

}  // namespace

void launch_scale(const void* in, void* out, std::int64_t elements, float factor, DType dtype,
                  cudaStream_t s) {
  if (dtype == DType::bf16)
    scale<<<stride_blocks(elements), kThreads, 0, s>>>(as<__nv_bfloat16>(in),
                                                       as<__nv_bfloat16>(out), elements, factor);
  else
    scale<<<stride_blocks(elements), kThreads, 0, s>>>(as<float>(in), as<float>(out), elements,
                                                       factor);
  cuda_check_launch("scale");
}

void launch_causal_mask(void* scores, std::int64_t heads, std::int64_t seq, DType dtype,
                        cudaStream_t s) {
  const auto blocks = static_cast<unsigned>(heads * seq);
  if (dtype == DType::bf16)
    causal_mask<<<blocks, kThreads, 0, s>>>(as<__nv_bfloat16>(scores), seq);
  else
    causal_mask<<<blocks, kThreads, 0, s>>>(as<float>(scores), seq);
  cuda_check_launch("causal_mask");
}

}  // namespace ridgeline
