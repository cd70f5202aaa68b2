#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/dtype.hpp"

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
  // Its bf16 and int8 GEMM entry points, once a probe has loaded it: the symbol found
  // (kBf16GemmSymbols, kI8GemmSymbols), or "" where it exports none; unknown before. Its GEMM
  // kernel runs those dtypes only where one was found. (Default initialisers: a spec made from
  // its first fields leaves them unknown without -Wmissing-field-initializers.)
  std::optional<std::string> bf16_gemm{};
  std::optional<std::string> i8_gemm{};
};

// Where scripts/install-deps --mkl puts MKL (PyPI's `mkl`), found by discovery as blas.mkl.
inline constexpr const char* kProjectMklPath = "/opt/ridgeline/venv/lib/libmkl_rt.so.2";

// The bf16 GEMM entry points looked for, in order: MKL's, OpenBLAS's (built with
// BUILD_BFLOAT16, 0.3.10 on; Debian's 0.3.21 is not). Both take bf16 A and B as their 16 bits
// and an f32 C, with the arguments of cblas_sgemm.
inline constexpr const char* kBf16GemmSymbols[] = {"cblas_gemm_bf16bf16f32", "cblas_sbgemm"};
// The int8 GEMM entry point: MKL's, one operand signed and one unsigned, each with an offset.
inline constexpr const char* kI8GemmSymbols[] = {"cblas_gemm_s8u8s32"};

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
enum CblasOffset { kCblasRowOffset = 171, kCblasFixOffset = 173 };
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                            int, float, float*, int);
using CblasDgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                            int, double, double*, int);
using CblasGemmBf16 = void (*)(int, int, int, int, int, int, float, const std::uint16_t*, int,
                               const std::uint16_t*, int, float, float*, int);
// C = alpha (op(A) + ao)(op(B) + bo) + beta C + co. Row-major, A is the unsigned operand and B
// the signed one (MKL names the types as column-major sees them: s8 A, u8 B), and a row offset
// (kCblasRowOffset) is n values, one added down each column of C.
using CblasGemmS8u8s32 = void (*)(int, int, int, int, int, int, int, float, const void*, int,
                                  std::int8_t, const void*, int, std::int8_t, float, std::int32_t*,
                                  int, const std::int32_t*);

// A loaded library (SharedLibrary: dlopen RTLD_LOCAL, so two libraries exporting cblas_*
// stay apart).
class BlasLibrary {
 public:
  ~BlasLibrary();
  BlasLibrary(const BlasLibrary&) = delete;
  BlasLibrary& operator=(const BlasLibrary&) = delete;

  const BlasLibrarySpec& spec() const { return spec_; }
  // The spec with what loading found: its thread setter and bf16 and int8 GEMMs.
  BlasLibrarySpec probed_spec() const;
  CblasSgemm sgemm() const { return sgemm_; }
  CblasDgemm dgemm() const { return dgemm_; }
  // The bf16 and int8 GEMMs, or nullptr where the library exports none; with the symbol each
  // was found under.
  CblasGemmBf16 gemm_bf16() const { return gemm_bf16_; }
  const std::string& gemm_bf16_symbol() const { return gemm_bf16_symbol_; }
  CblasGemmS8u8s32 gemm_s8u8s32() const { return gemm_s8u8s32_; }
  const std::string& gemm_s8u8s32_symbol() const { return gemm_s8u8s32_symbol_; }
  // The library's own thread setter (openblas_set_num_threads, bli_thread_set_num_threads,
  // MKL_Set_Num_Threads), or empty when it has none.
  const std::string& thread_setter() const { return thread_setter_name_; }
  bool set_threads(int threads) const;
  // Version or configuration string the library reports about itself, if it has one.
  const std::string& version() const { return version_; }
  // The kernels the library chose for this CPU (OpenBLAS's core name, BLIS's
  // sub-configuration, the instructions MKL dispatches to), or empty when it does not say.
  const std::string& kernel_set() const { return kernel_set_; }
  // The threading runtime the library was set to use where it has a choice (MKL's layer),
  // or empty.
  const std::string& threading() const { return threading_; }

 private:
  friend std::unique_ptr<BlasLibrary> load_blas_library(const BlasLibrarySpec& spec);
  BlasLibrary() = default;
  BlasLibrarySpec spec_;
  CblasSgemm sgemm_ = nullptr;
  CblasDgemm dgemm_ = nullptr;
  CblasGemmBf16 gemm_bf16_ = nullptr;
  std::string gemm_bf16_symbol_;
  CblasGemmS8u8s32 gemm_s8u8s32_ = nullptr;
  std::string gemm_s8u8s32_symbol_;
  std::string thread_setter_name_;
  void (*set_int_threads_)(int) = nullptr;
  void (*set_dim_threads_)(std::int64_t) = nullptr;
  std::string version_;
  std::string kernel_set_;
  std::string threading_;
};

// What a run's notes and `list` say about a library's kernel set: the name, and for one
// that fell back to portable C kernels on this CPU (BLIS's "generic"), why its figures are
// far below the hardware and how to choose real kernels. Empty for an empty set.
std::string describe_kernel_set(const std::string& version, const std::string& kernel_set);

// Whether a probed library has a GEMM for `dtype` (bf16 or i8), in words: "bf16 GEMM:
// cblas_gemm_bf16bf16f32", or what it lacks: "no bf16 GEMM: libopenblas.so.0 exports neither
// cblas_gemm_bf16bf16f32 nor cblas_sbgemm"; for an unprobed one, that it is not known yet.
std::string describe_low_precision_gemm(const BlasLibrarySpec& spec, DType dtype);
// Whether that phrase names an entry point found.
bool has_low_precision_gemm(const BlasLibrarySpec& spec, DType dtype);

// Throws InputError naming the path and the dlopen error or the missing symbol.
std::unique_ptr<BlasLibrary> load_blas_library(const BlasLibrarySpec& spec);

}  // namespace ridgeline
