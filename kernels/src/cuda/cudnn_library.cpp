#include "cudnn_library.hpp"

#include <stdexcept>

#include "ridgeline/core/shared_library.hpp"

namespace ridgeline {

namespace {

struct CudnnLoaded {  // named apart from cublas_library.cpp's: they may share a unity batch
  CudnnApi api;
  Support status;
};

const CudnnLoaded& cudnn_loaded() {
  static const CudnnLoaded once = [] {
    CudnnLoaded l;
    l.status = load_cudnn_api(l.api, cudnn_soname());
    return l;
  }();
  return once;
}

}  // namespace

std::string cudnn_soname() {
  return "libcudnn.so." + std::to_string(CUDNN_MAJOR);
}

Support load_cudnn_api(CudnnApi& api, const std::string& name) {
  // libcudnn is the front that loads its sub-libraries (ops, cnn, engines) as they are used.
  SharedLibrary lib = SharedLibrary::open(name);
  if (!lib.loaded()) return Support::no(lib.error());
#define RIDGELINE_CUDNN_RESOLVE(name) \
  if (!lib.resolve(api.name, #name)) return Support::no(lib.error());
  RIDGELINE_CUDNN_FUNCTIONS(RIDGELINE_CUDNN_RESOLVE)
#undef RIDGELINE_CUDNN_RESOLVE
  return Support::yes();
}

Support cudnn_status() {
  return cudnn_loaded().status;
}

const CudnnApi& cudnn() {
  const CudnnLoaded& l = cudnn_loaded();
  if (!l.status) throw std::runtime_error(l.status.reason);
  return l.api;
}

void cudnn_check(cudnnStatus_t s, const char* call) {
  if (s != CUDNN_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cudnn().cudnnGetErrorString(s));
}

}  // namespace ridgeline
