#include "cublas_library.hpp"

#include <stdexcept>

#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/loaded_api.hpp"

namespace ridgeline {

namespace {

Support load_process_cublas(CublasApi& api) {
  return load_cublas_api(api, cublaslt_soname(), cublas_soname());
}

}  // namespace

std::string cublaslt_soname() {
  return "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);
}

std::string cublas_soname() {
  return "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
}

Support load_cublas_api(CublasApi& api, const std::string& lt_name, const std::string& blas_name) {
  // libcublas depends on libcublasLt: the latter first, so its absence is what is reported.
  SharedLibrary lt = SharedLibrary::open(lt_name);
  if (!lt.loaded()) return Support::no(lt.error());
  SharedLibrary blas = SharedLibrary::open(blas_name);
  if (!blas.loaded()) return Support::no(blas.error());
#define RIDGELINE_CUBLAS_RESOLVE(lib, name) \
  if (!lib.resolve(api.name, #name)) return Support::no(lib.error());
#define RIDGELINE_FROM_BLAS(name) RIDGELINE_CUBLAS_RESOLVE(blas, name)
#define RIDGELINE_FROM_LT(name) RIDGELINE_CUBLAS_RESOLVE(lt, name)
  RIDGELINE_CUBLAS_FUNCTIONS(RIDGELINE_FROM_BLAS)
  RIDGELINE_CUBLASLT_FUNCTIONS(RIDGELINE_FROM_LT)
  RIDGELINE_FROM_BLAS(cublasGemmEx)
  RIDGELINE_FROM_BLAS(cublasGemmStridedBatchedEx)
#undef RIDGELINE_FROM_LT
#undef RIDGELINE_FROM_BLAS
#undef RIDGELINE_CUBLAS_RESOLVE
  return Support::yes();
}

Support cublas_status() {
  return loaded_once<CublasApi, load_process_cublas>().status;
}

const CublasApi& cublas() {
  return loaded_functions<CublasApi, load_process_cublas>();
}

CublasHandle::~CublasHandle() {
  if (handle_) cublas().cublasDestroy(handle_);
}

cublasHandle_t CublasHandle::on(cudaStream_t stream) {
  if (!handle_) RIDGELINE_CUBLAS(cublas().cublasCreate(&handle_));
  RIDGELINE_CUBLAS(cublas().cublasSetStream(handle_, stream));
  return handle_;
}

void cublas_check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cublas().cublasGetStatusName(s) +
                             " (" + cublas().cublasGetStatusString(s) + ")");
}

}  // namespace ridgeline
