#pragma once
// cp.async (sm_80 on): 16 bytes from global to shared memory without passing through
// registers, in groups that a kernel commits and waits for. One definition for every
// kernel that pipelines its loads.
#include <cuda_runtime.h>

namespace ridgeline {

static __device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Zero-fills the 16 bytes (the source is then not read) when `inside` is false.
static __device__ __forceinline__ void copy16_async(void* shared, const void* global,
                                                    bool inside = true) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(shared)),
               "l"(global), "r"(inside ? 16 : 0));
}

static __device__ __forceinline__ void commit_copies() {
  asm volatile("cp.async.commit_group;\n" ::);
}

// Returns once at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
static __device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
}

}  // namespace ridgeline
