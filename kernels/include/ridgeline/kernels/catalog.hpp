#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/kernels/blas_provider.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

using KernelFactory = std::function<std::unique_ptr<Kernel>()>;

// Every kernel this process can run, by op and backend name (one backend name, such as
// "cpu.fused", may serve several ops). Creating a kernel is cheap and touches no library:
// BLAS kernels load their library in prepare().
class KernelCatalog {
 public:
  // The factory is called once here to read the kernel's info().
  void add(KernelFactory factory);
  const std::vector<KernelInfo>& kernels() const { return infos_; }
  const KernelInfo* find(const std::string& backend, const std::string& op = "gemm") const;
  std::unique_ptr<Kernel> create(const std::string& backend, const std::string& op = "gemm") const;

  // The built-in CPU ladder plus one BLAS kernel per library given.
  static KernelCatalog with_builtin_kernels(const std::vector<BlasLibrarySpec>& blas);

 private:
  std::vector<KernelInfo> infos_;
  std::vector<KernelFactory> factories_;
};

// The packed rung this CPU runs best: "cpu.packed_avx512" where AVX-512 is present, else
// "cpu.packed_avx2", else nothing. `threaded` picks the OpenMP variant.
std::optional<std::string> best_packed_backend(bool threaded);

}  // namespace ridgeline
