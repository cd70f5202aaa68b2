#pragma once
// Launchers of the GPU ceiling microbenchmarks (gpu_ceiling_kernels.cu). Each enqueues its
// kernel on `stream` and checks the launch; the host side times them with events.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ridgeline {

// Independent FMA chains in registers: returns the FLOPs one launch performs.
double launch_fma_peak_f64(int blocks, int threads, int iterations, void* sink, cudaStream_t s);
double launch_fma_peak_f32(int blocks, int threads, int iterations, void* sink, cudaStream_t s);

// mma.sync on register operands, four independent accumulators per warp; returns the
// FLOPs (OPs for int8) one launch performs. `kind`: "bf16", "f16", "tf32", "i8".
double launch_mma_peak(const char* kind, int blocks, int warps_per_block, int iterations,
                       void* sink, cudaStream_t s);

// dst = src over `bytes` (16-byte vectors, grid-stride): reads and writes `bytes` each.
void launch_copy(void* dst, const void* src, std::size_t bytes, int blocks, cudaStream_t s);
// Sums `bytes` of `src` `passes` times (16-byte vectors, grid-stride).
void launch_read(const void* src, std::size_t bytes, int passes, void* sink, int blocks,
                 cudaStream_t s);
// Each block reads its 32 KiB shared-memory array `passes` times (16-byte vectors); returns
// the bytes read from shared memory in all.
double launch_shared_read(int blocks, int passes, void* sink, cudaStream_t s);
// Each block reads its own `bytes_per_block` of `src` `passes` times through L1; returns
// the bytes read in all.
double launch_l1_read(const void* src, std::size_t bytes_per_block, int passes, void* sink,
                      int blocks, cudaStream_t s);
// An empty kernel, one thread: the cost of a launch.
void launch_empty(cudaStream_t s);
// Fills `elements` values uniform in [-1, 1) (i8: scaled to [-127, 127]) from a hash of
// the index and `seed`: data for library GEMMs. Codes: 0 f32, 1 i8, 2 bf16, 3 f16, 4 f64, 5 fp8
// e4m3.
void launch_fill_uniform(void* dst, std::size_t elements, int dtype_code, std::uint32_t seed,
                         cudaStream_t s);

}  // namespace ridgeline
