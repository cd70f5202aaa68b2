#pragma once
// The groups of GPU kernels gpu_kernels.cpp adds to the catalog.
namespace ridgeline {
class KernelCatalog;
void add_hand_written_gpu_kernels(KernelCatalog& catalog);
void add_cublas_kernels(KernelCatalog& catalog);
void add_cublas_einsum_kernels(KernelCatalog& catalog);     // einsum, copy-free
void add_cuda_ttgt_einsum_kernels(KernelCatalog& catalog);  // einsum, permute-GEMM-permute
void add_gpu_rowwise_kernels(KernelCatalog& catalog);
void add_gpu_attention_kernels(KernelCatalog& catalog);
void add_cudnn_kernels(KernelCatalog& catalog);            // softmax
void add_cudnn_norm_kernels(KernelCatalog& catalog);       // layernorm, rmsnorm (graph API)
void add_cudnn_attention_kernels(KernelCatalog& catalog);  // attention (graph API)
}  // namespace ridgeline
