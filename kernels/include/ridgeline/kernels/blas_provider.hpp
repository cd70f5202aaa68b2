#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

// A CBLAS shared library, found on the machine or named by the user. Nothing is loaded
// until load_blas_library().
struct BlasLibrarySpec {
  std::string name;  // "openblas", "blis", "refblas", or derived from the file name
  std::filesystem::path path;
  bool user_given = false;
  // Whether the library has a thread-count setter, once a probe has loaded it; unknown
  // before. Without a setter the library is run on one thread only.
  std::optional<bool> has_thread_setter;
};

// Libraries in the usual Debian/Ubuntu/Fedora locations that exist on this machine.
std::vector<BlasLibrarySpec> discover_blas_libraries();
// A spec for a user's --blas-lib PATH; the name comes from the file ("libmkl_rt.so" ->
// "mkl_rt") and is made unique against `taken`. A PATH without a slash is that file in the
// working directory (./PATH), never a name searched for. Throws InputError if the file is
// missing; loading it checks it further (SharedLibrary::open).
BlasLibrarySpec user_blas_library(const std::filesystem::path& path,
                                  const std::vector<BlasLibrarySpec>& taken);

enum CblasOrder { kCblasRowMajor = 101 };
enum CblasTranspose { kCblasNoTrans = 111, kCblasTrans = 112 };
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                            int, float, float*, int);
using CblasDgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                            int, double, double*, int);

// A loaded library (SharedLibrary: dlopen RTLD_LOCAL, so two libraries exporting cblas_*
// stay apart).
class BlasLibrary {
 public:
  ~BlasLibrary();
  BlasLibrary(const BlasLibrary&) = delete;
  BlasLibrary& operator=(const BlasLibrary&) = delete;

  const BlasLibrarySpec& spec() const { return spec_; }
  CblasSgemm sgemm() const { return sgemm_; }
  CblasDgemm dgemm() const { return dgemm_; }
  // The library's own thread setter (openblas_set_num_threads, bli_thread_set_num_threads,
  // MKL_Set_Num_Threads), or empty when it has none.
  const std::string& thread_setter() const { return thread_setter_name_; }
  bool set_threads(int threads) const;
  // Version or configuration string the library reports about itself, if it has one.
  const std::string& version() const { return version_; }
  // The kernels the library chose for this CPU (OpenBLAS's core name, BLIS's
  // sub-configuration), or empty when it does not say.
  const std::string& kernel_set() const { return kernel_set_; }

 private:
  friend std::unique_ptr<BlasLibrary> load_blas_library(const BlasLibrarySpec& spec);
  BlasLibrary() = default;
  BlasLibrarySpec spec_;
  CblasSgemm sgemm_ = nullptr;
  CblasDgemm dgemm_ = nullptr;
  std::string thread_setter_name_;
  void (*set_int_threads_)(int) = nullptr;
  void (*set_dim_threads_)(std::int64_t) = nullptr;
  std::string version_;
  std::string kernel_set_;
};

// What a run's notes and `list` say about a library's kernel set: the name, and for one
// that fell back to portable C kernels on this CPU (BLIS's "generic"), why its figures are
// far below the hardware and how to choose real kernels. Empty for an empty set.
std::string describe_kernel_set(const std::string& version, const std::string& kernel_set);

// Throws InputError naming the path and the dlopen error or the missing symbol.
std::unique_ptr<BlasLibrary> load_blas_library(const BlasLibrarySpec& spec);

}  // namespace ridgeline
