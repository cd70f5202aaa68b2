#include "cudnn_library.hpp"

#include <stdexcept>

#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/loaded_api.hpp"

namespace ridgeline {

namespace {

Support load_process_cudnn(CudnnApi& api) {
  return load_cudnn_api(api, cudnn_soname());
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
  return loaded_once<CudnnApi, load_process_cudnn>().status;
}

const CudnnApi& cudnn() {
  return loaded_functions<CudnnApi, load_process_cudnn>();
}

void cudnn_check(cudnnStatus_t s, const char* call) {
  if (s != CUDNN_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cudnn().cudnnGetErrorString(s));
}

}  // namespace ridgeline
