#include "nccl_library.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/loaded_api.hpp"

namespace ridgeline::cluster {

namespace {

Support load_process_nccl(NcclApi& api) {
  return load_nccl_api(api, nccl_soname());
}

}  // namespace

std::string nccl_soname() {
  return fmt::format("libnccl.so.{}", NCCL_MAJOR);
}

Support load_nccl_api(NcclApi& api, const std::string& name) {
  SharedLibrary lib = SharedLibrary::open(name);
  if (!lib.loaded()) return Support::no(lib.error());
#define RIDGELINE_NCCL_RESOLVE(name) \
  if (!lib.resolve(api.name, #name)) return Support::no(lib.error());
  RIDGELINE_NCCL_FUNCTIONS(RIDGELINE_NCCL_RESOLVE)
#undef RIDGELINE_NCCL_RESOLVE
  lib.resolve(api.ncclGetLastError, "ncclGetLastError");  // optional: its absence is no reason
  return Support::yes();
}

Support nccl_status() {
  return loaded_once<NcclApi, load_process_nccl>().status;
}

const NcclApi& nccl() {
  return loaded_functions<NcclApi, load_process_nccl>();
}

void nccl_check(ncclResult_t r, const char* call) {
  if (r == ncclSuccess) return;
  const char* last = nccl().ncclGetLastError ? nccl().ncclGetLastError(nullptr) : nullptr;
  throw std::runtime_error(fmt::format("{} failed: {}{}{}", call, nccl().ncclGetErrorString(r),
                                       last && *last ? ": " : "", last ? last : ""));
}

std::string nccl_reason() {
  return nccl_status().reason;
}

std::string nccl_version() {
  if (!nccl_status()) return "";
  int code = 0;
  if (nccl().ncclGetVersion(&code) != ncclSuccess) return "";
  // NCCL_VERSION(X, Y, Z): X * 10000 + Y * 100 + Z since 2.9, X * 1000 + Y * 100 + Z before.
  return code >= 20900 ? fmt::format("{}.{}.{}", code / 10000, code % 10000 / 100, code % 100)
                       : fmt::format("{}.{}.{}", code / 1000, code % 1000 / 100, code % 100);
}

}  // namespace ridgeline::cluster
