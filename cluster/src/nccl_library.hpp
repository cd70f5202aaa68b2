#pragma once
// NCCL, loaded with dlopen on first use, as cuBLAS is (kernels/src/cuda/cublas_library.hpp
// says why): a process without libnccl loses only the GPU collectives of `probe --network`,
// which say why. The pointers' types come from the real header (decltype).
#include <nccl.h>

#include <string>

#include "ridgeline/kernels/kernel.hpp"

// X(name) for each function the probe calls, each in NCCL since 2.7 (ncclSend, ncclRecv).
// No ncclAlltoAll: it is new in NCCL 2.28, and nccl-tests' grouped sends and receives
// measure the same thing. ncclGetLastError (2.13) is resolved where there is one.
#define RIDGELINE_NCCL_FUNCTIONS(X) \
  X(ncclGetVersion)                 \
  X(ncclGetUniqueId)                \
  X(ncclCommInitRank)               \
  X(ncclCommDestroy)                \
  X(ncclCommAbort)                  \
  X(ncclGetErrorString)             \
  X(ncclCommGetAsyncError)          \
  X(ncclAllReduce)                  \
  X(ncclAllGather)                  \
  X(ncclReduceScatter)              \
  X(ncclSend)                       \
  X(ncclRecv)                       \
  X(ncclGroupStart)                 \
  X(ncclGroupEnd)

namespace ridgeline::cluster {

struct NcclApi {
#define RIDGELINE_NCCL_POINTER(name) decltype(&::name) name = nullptr;
  RIDGELINE_NCCL_FUNCTIONS(RIDGELINE_NCCL_POINTER)
#undef RIDGELINE_NCCL_POINTER
  decltype(&::ncclGetLastError) ncclGetLastError = nullptr;  // before NCCL 2.13: none
};

// The soname of the NCCL this header belongs to ("libnccl.so.2").
std::string nccl_soname();
// Loads `name` and resolves every function above into `api`; the one-line reason names the
// library and carries dlerror()'s text.
Support load_nccl_api(NcclApi& api, const std::string& name);

// The process's NCCL, loaded on the first call (thread-safe, once).
Support nccl_status();
// The functions; throws std::runtime_error with nccl_status()'s reason where not loaded.
const NcclApi& nccl();

// A failed NCCL call throws with the call, NCCL's name for the result and its last error.
void nccl_check(ncclResult_t r, const char* call);

}  // namespace ridgeline::cluster

#define RIDGELINE_NCCL(call) ::ridgeline::cluster::nccl_check((call), #call)
