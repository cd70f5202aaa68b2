#pragma once
// oneDNN 3's C API, the part a matmul needs, from a libdnnl.so.3 loaded at run time: PyPI's
// newest build on GNU OpenMP (onednn-cpu-gomp, oneDNN 3.2), which scripts/install-deps --onednn
// puts in the project's virtual environment. Ridgeline is compiled against Debian's oneDNN 2.6
// (src/onednn/), whose headers declare version 2's API under the same names, so the functions
// used here are declared by their version-3 signatures (oneapi/dnnl/dnnl.h of 3.x) and looked
// up by name, and the library is loaded with its own symbols first (both export dnnl_* and
// dnnl::impl:: names).
#include <cstdint>
#include <string>

#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline::onednn3 {

// Where scripts/install-deps --onednn puts it.
inline constexpr const char* kLibraryPath = "/opt/ridgeline/venv/lib/libdnnl.so.3";

// The enumerators used, as oneDNN 3.x defines them (dnnl_common_types.h, dnnl_types.h).
enum : int {
  kSuccess = 0,
  kUnimplemented = 3,  // dnnl_unimplemented: no implementation for the problem on this CPU
  kCpuEngine = 1,
  kStreamInOrder = 1,
  kF16 = 1,
  kBf16 = 2,
  kF32 = 3,
  kS32 = 4,
  kS8 = 5,
  kArgSrc = 1,
  kArgDst = 17,
  kArgWeights = 33,
  kQueryImplInfoStr = 8,
};

using Handle = void*;
struct ExecArg {
  int arg;
  Handle memory;
};
struct Version {
  int major, minor, patch;
  const char* hash;
  unsigned cpu_runtime, gpu_runtime;
};
inline constexpr unsigned kRuntimeOmp = 2;

struct Api {
  const Version* (*version)();
  int (*engine_create)(Handle* engine, int kind, std::size_t index);
  int (*stream_create)(Handle* stream, Handle engine, unsigned flags);
  int (*memory_desc_create_with_strides)(Handle* md, int ndims, const std::int64_t* dims,
                                         int data_type, const std::int64_t* strides);
  int (*memory_desc_destroy)(Handle md);
  int (*matmul_primitive_desc_create)(Handle* pd, Handle engine, Handle src, Handle weights,
                                      Handle bias, Handle dst, Handle attr);
  int (*primitive_desc_query)(Handle pd, int what, int index, void* result);
  int (*primitive_desc_destroy)(Handle pd);
  int (*primitive_create)(Handle* primitive, Handle pd);
  int (*primitive_destroy)(Handle primitive);
  int (*memory_create)(Handle* memory, Handle md, Handle engine, void* handle);
  int (*memory_set_data_handle)(Handle memory, void* handle);
  int (*memory_destroy)(Handle memory);
  int (*primitive_execute)(Handle primitive, Handle stream, int nargs, const ExecArg* args);
  int (*stream_wait)(Handle stream);
  // The process's CPU engine and stream, and the library in words ("oneDNN 3.2.0 (GNU
  // OpenMP), /opt/...").
  Handle engine = nullptr;
  Handle stream = nullptr;
  std::string description;
};

// The library, loaded once per process (loaded_api.hpp): whether it is here, or why not.
Support status();
// Its functions, engine and stream; throws with status()'s reason where it is not here.
const Api& api();

}  // namespace ridgeline::onednn3
