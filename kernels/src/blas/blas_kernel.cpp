#include "blas_kernel.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

KernelInfo blas_kernel_info(const BlasLibrarySpec& spec, const std::string& op,
                            std::string description) {
  return {op,
          "blas." + spec.name,
          Device::cpu,
          {DType::f32, DType::f64},
          spec.has_thread_setter.value_or(spec.name != "refblas"),
          std::move(description),
          KernelRole::vendor,
          std::string(kBlasFamily)};
}

Support blas_threads_support(const KernelInfo& info, const BlasLibrarySpec& spec, int threads) {
  if (threads > 1 && !info.threaded)
    return Support::no(fmt::format("{} ({}) has no thread-count setter Ridgeline knows", info.id(),
                                   spec.path.string()));
  return Support::yes();
}

const BlasLibrary& blas_with_threads(std::unique_ptr<BlasLibrary>& lib, const BlasLibrarySpec& spec,
                                     int threads) {
  if (!lib) lib = load_blas_library(spec);
  if (!lib->set_threads(threads) && threads > 1)
    throw std::runtime_error(fmt::format("{} has no thread-count setter; cannot run {} threads",
                                         spec.path.string(), threads));
  return *lib;
}

}  // namespace ridgeline
