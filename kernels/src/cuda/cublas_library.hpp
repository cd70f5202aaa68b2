#pragma once
// cuBLAS and cuBLASLt, loaded with dlopen on first use instead of linked. Linked, they cost
// every process that links ridgeline::kernels about 0.5 s of CPU and 220 MB of RSS before
// main() (libcublasLt's static initialisers and the relocation of 600 MB of libraries),
// whether or not it has a GPU or runs a cuBLAS kernel.
//
// The pointers' types come from the real headers (decltype), so they cannot drift from
// them. Members carry the exported names: cublas_v2.h's macros (cublasCreate ->
// cublasCreate_v2, cublasSgemm -> cublasSgemm_v2) apply to `api.cublasCreate(...)` as they
// did to the direct calls.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <string>

#include "ridgeline/kernels/kernel.hpp"

// X(name) for each function the GPU kernels and ceilings call, by library (and
// cublasGemmEx and cublasGemmStridedBatchedEx, below).
#define RIDGELINE_CUBLAS_FUNCTIONS(X) \
  X(cublasCreate_v2)                  \
  X(cublasDestroy_v2)                 \
  X(cublasSetStream_v2)               \
  X(cublasSetMathMode)                \
  X(cublasGetVersion_v2)              \
  X(cublasGetStatusName)              \
  X(cublasGetStatusString)            \
  X(cublasSgemm_v2)                   \
  X(cublasDgemm_v2)
#define RIDGELINE_CUBLASLT_FUNCTIONS(X)   \
  X(cublasLtCreate)                       \
  X(cublasLtDestroy)                      \
  X(cublasLtGetVersion)                   \
  X(cublasLtMatmulDescCreate)             \
  X(cublasLtMatmulDescDestroy)            \
  X(cublasLtMatmulDescSetAttribute)       \
  X(cublasLtMatrixLayoutCreate)           \
  X(cublasLtMatrixLayoutDestroy)          \
  X(cublasLtMatmulPreferenceCreate)       \
  X(cublasLtMatmulPreferenceDestroy)      \
  X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatmulAlgoGetHeuristic)       \
  X(cublasLtMatmul)

namespace ridgeline {

// cublasGemmEx is overloaded in C++ (cublas_api.h adds an inline wrapper taking the compute
// type as a cudaDataType), so decltype cannot name it: the exported one's type is spelt
// out, and the static_assert fails to compile if the header's declaration differs.
using CublasGemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                        int, int, const void*, const void*, cudaDataType, int,
                                        const void*, cudaDataType, int, const void*, void*,
                                        cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
static_assert(sizeof(static_cast<CublasGemmEx>(&::cublasGemmEx)) > 0);
// The same for the strided batched form (attention's per-head GEMMs).
using CublasGemmStridedBatchedEx = cublasStatus_t (*)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*,
    cudaDataType, int, long long, const void*, cudaDataType, int, long long, const void*, void*,
    cudaDataType, int, long long, int, cublasComputeType_t, cublasGemmAlgo_t);
static_assert(sizeof(static_cast<CublasGemmStridedBatchedEx>(&::cublasGemmStridedBatchedEx)) > 0);

struct CublasApi {
  CublasGemmEx cublasGemmEx = nullptr;
  CublasGemmStridedBatchedEx cublasGemmStridedBatchedEx = nullptr;
#define RIDGELINE_CUBLAS_POINTER(name) decltype(&::name) name = nullptr;
  RIDGELINE_CUBLAS_FUNCTIONS(RIDGELINE_CUBLAS_POINTER)
  RIDGELINE_CUBLASLT_FUNCTIONS(RIDGELINE_CUBLAS_POINTER)
#undef RIDGELINE_CUBLAS_POINTER
};

// The sonames of the toolkit these headers belong to ("libcublasLt.so.13").
std::string cublaslt_soname();
std::string cublas_soname();

// Loads cuBLASLt then cuBLAS from the given names and resolves every function above into
// `api`; on failure the one-line reason names the library and carries dlerror()'s text.
Support load_cublas_api(CublasApi& api, const std::string& lt_name, const std::string& blas_name);

// The process's cuBLAS: loaded from the sonames on the first call (thread-safe, once);
// Support::no with the reason where that failed.
Support cublas_status();
// The functions; throws std::runtime_error with cublas_status()'s reason where they could
// not be loaded (the probe's ceilings record it as that ceiling's failure).
const CublasApi& cublas();

// A kernel's cuBLAS handle: created on the first on(), destroyed with the kernel.
class CublasHandle {
 public:
  CublasHandle() = default;
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  ~CublasHandle();
  // The handle, its calls queued on `stream`.
  cublasHandle_t on(cudaStream_t stream);
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// Every cuBLAS and cuBLASLt call is checked: a failure throws with the call, the status's
// name and its text, and the case that made it is recorded as crashed. Called after a call
// into the libraries, so they are loaded.
void cublas_check(cublasStatus_t s, const char* call);

}  // namespace ridgeline

#define RIDGELINE_CUBLAS(call) ::ridgeline::cublas_check((call), #call)
