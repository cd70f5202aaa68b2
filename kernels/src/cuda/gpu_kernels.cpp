#include "gpu_kernels.hpp"

#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

void add_gpu_kernels(KernelCatalog& catalog) {
  add_hand_written_gpu_kernels(catalog);
  add_cublas_kernels(catalog);
  add_cublas_einsum_kernels(catalog);
  add_cuda_ttgt_einsum_kernels(catalog);
  add_gpu_rowwise_kernels(catalog);
  add_gpu_attention_kernels(catalog);
  add_cudnn_kernels(catalog);
  add_cudnn_norm_kernels(catalog);
  add_cudnn_attention_kernels(catalog);
}

}  // namespace ridgeline
