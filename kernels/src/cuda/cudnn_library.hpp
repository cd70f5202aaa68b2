#pragma once
// cuDNN, loaded with dlopen on first use as cuBLAS is (cublas_library.hpp says why): a process
// without cuDNN, or without a GPU, loses only the cuDNN kernels, each saying why. The
// pointers' types come from the real headers (decltype).
#include <cudnn.h>

#include <string>

#include "ridgeline/kernels/kernel.hpp"

// X(name) for each function the cuDNN kernels call.
#define RIDGELINE_CUDNN_FUNCTIONS(X) \
  X(cudnnCreate)                     \
  X(cudnnDestroy)                    \
  X(cudnnSetStream)                  \
  X(cudnnGetVersion)                 \
  X(cudnnGetErrorString)             \
  X(cudnnCreateTensorDescriptor)     \
  X(cudnnDestroyTensorDescriptor)    \
  X(cudnnSetTensor4dDescriptor)      \
  X(cudnnSoftmaxForward)             \
  X(cudnnGetLastErrorString)         \
  X(cudnnBackendCreateDescriptor)    \
  X(cudnnBackendDestroyDescriptor)   \
  X(cudnnBackendSetAttribute)        \
  X(cudnnBackendGetAttribute)        \
  X(cudnnBackendFinalize)            \
  X(cudnnBackendExecute)

namespace ridgeline {

struct CudnnApi {
#define RIDGELINE_CUDNN_POINTER(name) decltype(&::name) name = nullptr;
  RIDGELINE_CUDNN_FUNCTIONS(RIDGELINE_CUDNN_POINTER)
#undef RIDGELINE_CUDNN_POINTER
};

// The soname of the cuDNN these headers belong to ("libcudnn.so.9").
std::string cudnn_soname();
// Loads `name` and resolves every function above into `api`; the one-line reason names the
// library and carries dlerror()'s text.
Support load_cudnn_api(CudnnApi& api, const std::string& name);

// The process's cuDNN, loaded on the first call (thread-safe, once); Support::no with the
// reason where that failed.
Support cudnn_status();
// The functions; throws std::runtime_error with cudnn_status()'s reason where not loaded.
const CudnnApi& cudnn();

// A failed cuDNN call throws with the call, the status and its text.
void cudnn_check(cudnnStatus_t s, const char* call);

}  // namespace ridgeline

#define RIDGELINE_CUDNN(call) ::ridgeline::cudnn_check((call), #call)
