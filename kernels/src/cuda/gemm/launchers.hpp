#pragma once
// Launchers of the hand-written CUDA GEMM kernels (row-major, NN layout): each enqueues
// one C = A B on the stream and checks the launch. Defined in the .cu files.
#include <cuda_runtime.h>

#include "device_gemm.hpp"

namespace ridgeline {

void launch_sgemm_naive(const DeviceGemm& g, cudaStream_t stream);
void launch_sgemm_coalesced(const DeviceGemm& g, cudaStream_t stream);
void launch_sgemm_smem_32x32(const DeviceGemm& g, cudaStream_t stream);
void launch_sgemm_regblock_128x128x8_8x8(const DeviceGemm& g, cudaStream_t stream);
void launch_sgemm_vec4_128x128x8_8x8(const DeviceGemm& g, cudaStream_t stream);
void launch_sgemm_warptile_128x128x16(const DeviceGemm& g, cudaStream_t stream);
void launch_sgemm_pipelined_128x128x16(const DeviceGemm& g, cudaStream_t stream);
// bf16 or f16 inputs (g.dtype), f32 accumulators and C.
void launch_wmma_128x128x32(const DeviceGemm& g, cudaStream_t stream);
void launch_mma_128x256x32(const DeviceGemm& g, cudaStream_t stream);
void launch_mma_128x256x64(const DeviceGemm& g, cudaStream_t stream);
// sm_90a only (wgmma_gemm.cu, its own target): compute capability 9.0.
void launch_wgmma_128x256x64(const DeviceGemm& g, cudaStream_t stream);

}  // namespace ridgeline
