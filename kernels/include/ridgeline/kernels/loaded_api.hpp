#pragma once
// A vendor library's functions (cuBLAS, cuDNN, NCCL: each an Api struct of pointers), loaded
// with dlopen once per process, on first use, so that a process that never calls them never
// pays for them and one without them loses only their kernels, each saying why.
#include <stdexcept>

#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

template <class Api>
struct LoadedApi {
  Api api;
  Support status;  // Support::no with the loader's reason (dlerror()'s text) where it failed
};

// The process's `Api`, loaded by `Load` on the first call (a function-local static:
// initialised once, other threads wait).
template <class Api, Support (*Load)(Api&)>
const LoadedApi<Api>& loaded_once() {
  static const LoadedApi<Api> once = [] {
    LoadedApi<Api> l;
    l.status = Load(l.api);
    return l;
  }();
  return once;
}

// Its functions; throws std::runtime_error with the reason where they could not be loaded.
template <class Api, Support (*Load)(Api&)>
const Api& loaded_functions() {
  const LoadedApi<Api>& l = loaded_once<Api, Load>();
  if (!l.status) throw std::runtime_error(l.status.reason);
  return l.api;
}

}  // namespace ridgeline
