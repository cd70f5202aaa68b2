#include "onednn3_api.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/loaded_api.hpp"

namespace ridgeline::onednn3 {

namespace {

Support load(Api& api) {
  if (!std::filesystem::exists(kLibraryPath))
    return Support::no(
        fmt::format("oneDNN 3 is not installed: {} missing; scripts/install-deps "
                    "--onednn installs it (PyPI's onednn-cpu-gomp)",
                    kLibraryPath));
  SharedLibrary so = SharedLibrary::open(kLibraryPath, SymbolLookup::own_first);
  if (!so.loaded()) return Support::no(so.error());
  const bool all =
      so.resolve(api.version, "dnnl_version") &&
      so.resolve(api.engine_create, "dnnl_engine_create") &&
      so.resolve(api.stream_create, "dnnl_stream_create") &&
      so.resolve(api.memory_desc_create_with_strides, "dnnl_memory_desc_create_with_strides") &&
      so.resolve(api.memory_desc_destroy, "dnnl_memory_desc_destroy") &&
      so.resolve(api.matmul_primitive_desc_create, "dnnl_matmul_primitive_desc_create") &&
      so.resolve(api.primitive_desc_query, "dnnl_primitive_desc_query") &&
      so.resolve(api.primitive_desc_destroy, "dnnl_primitive_desc_destroy") &&
      so.resolve(api.primitive_create, "dnnl_primitive_create") &&
      so.resolve(api.primitive_destroy, "dnnl_primitive_destroy") &&
      so.resolve(api.memory_create, "dnnl_memory_create") &&
      so.resolve(api.memory_set_data_handle, "dnnl_memory_set_data_handle") &&
      so.resolve(api.memory_destroy, "dnnl_memory_destroy") &&
      so.resolve(api.primitive_execute, "dnnl_primitive_execute") &&
      so.resolve(api.stream_wait, "dnnl_stream_wait");
  if (!all)
    return Support::no(fmt::format("{} lacks a oneDNN 3 function: {}", kLibraryPath, so.error()));
  const Version* v = api.version();
  if (v->major != 3)
    return Support::no(
        fmt::format("{} is oneDNN {}.{}, not 3.x", kLibraryPath, v->major, v->minor));
  if (v->cpu_runtime != kRuntimeOmp) {
    // A TBB or SYCL build keeps its own thread pool, whose size no call here sets.
    return Support::no(fmt::format("{} is oneDNN {}.{} built for CPU runtime {}, not OpenMP",
                                   kLibraryPath, v->major, v->minor, v->cpu_runtime));
  }
  if (api.engine_create(&api.engine, kCpuEngine, 0) != kSuccess ||
      api.stream_create(&api.stream, api.engine, kStreamInOrder) != kSuccess)
    return Support::no(fmt::format("{}: no CPU engine or stream", kLibraryPath));
  api.description =
      fmt::format("oneDNN {}.{}.{} (GNU OpenMP), {}", v->major, v->minor, v->patch, kLibraryPath);
  return Support::yes();
}

}  // namespace

Support status() {
  return loaded_once<Api, load>().status;
}

const Api& api() {
  return loaded_functions<Api, load>();
}

}  // namespace ridgeline::onednn3
