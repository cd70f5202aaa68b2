#include "ridgeline/kernels/blas_provider.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/shared_library.hpp"

namespace ridgeline {

namespace {

struct KnownLibrary {
  const char* name;
  std::vector<std::string> paths;  // the first that exists is used
};

// Debian's multiarch directory of this build's architecture: an arm64 process (or one under
// qemu-user on an amd64 host) loads arm64 libraries alone.
#if defined(__x86_64__)
constexpr const char* kMultiarch = "/usr/lib/x86_64-linux-gnu";
#elif defined(__aarch64__)
constexpr const char* kMultiarch = "/usr/lib/aarch64-linux-gnu";
#endif

std::string in_multiarch(const char* file) {
  return std::string(kMultiarch) + "/" + file;
}

// Where Debian/Ubuntu and Fedora put the CBLAS libraries we know. Each entry is one
// implementation; the threading variant is picked by path order. MKL is x86-64's alone.
const std::vector<KnownLibrary>& known_libraries() {
  static const std::vector<KnownLibrary> known = {
    {"openblas",
     {in_multiarch("openblas-pthread/libopenblas.so.0"),
      in_multiarch("openblas-openmp/libopenblas.so.0"), in_multiarch("libopenblas.so.0"),
      "/usr/lib64/libopenblas.so.0"}},
    {"blis",
     {in_multiarch("blis-pthread/libblis.so.4"), in_multiarch("blis-openmp/libblis.so.4"),
      in_multiarch("libblis.so.4"), "/usr/lib64/libblis.so.4"}},
    {"refblas", {in_multiarch("blas/libblas.so.3"), "/usr/lib64/libcblas.so.3"}},
#if defined(__x86_64__)
    {"mkl",
     {kProjectMklPath, in_multiarch("libmkl_rt.so"),
      "/opt/intel/oneapi/mkl/latest/lib/libmkl_rt.so.2"}},
#endif
  };
  return known;
}

// mkl_service.h's values.
constexpr int kMklThreadingGnu = 3;
constexpr int kMklInterfaceLp64 = 0;
// MKL_Get_Version's structure: its version numbers (three ints in older releases, four in
// 2025.3) then its strings, which start at offset 16 either way (pointers are 8-byte aligned).
struct MklVersionFields {
  int major, minor, update, patch;
  const char *status, *build, *processor, *platform;
};

std::string name_from_file(const std::filesystem::path& path) {
  std::string stem = path.filename().string();
  if (auto so = stem.find(".so"); so != std::string::npos) stem = stem.substr(0, so);
  if (stem.rfind("lib", 0) == 0) stem = stem.substr(3);
  return stem.empty() ? "blas" : stem;
}

}  // namespace

std::vector<BlasLibrarySpec> discover_blas_libraries() {
  std::vector<BlasLibrarySpec> found;
  for (const auto& lib : known_libraries())
    for (const std::string& path : lib.paths) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) {
        found.push_back({lib.name, path, false, std::nullopt});
        break;
      }
    }
  return found;
}

BlasLibrarySpec user_blas_library(const std::filesystem::path& named,
                                  const std::vector<BlasLibrarySpec>& taken) {
  // The file the user named is the file loaded: a name without a slash is that file in the
  // working directory, as for every other file option, never a soname the loader searches
  // for (which found another copy elsewhere).
  const std::filesystem::path path = named.string().find('/') == std::string::npos
                                         ? std::filesystem::path("./" + named.string())
                                         : named;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(
        fmt::format("--blas-lib {}: no such file{}", named.string(),
                    path == named ? ""
                                  : " in the working directory (a library is loaded from the file "
                                    "named, never searched for: give its path)"));
  if (std::filesystem::is_directory(path, ec))
    throw InputError(
        fmt::format("--blas-lib {}: is a directory, not a shared library", named.string()));
  if (!std::filesystem::is_regular_file(path, ec))  // a FIFO would hang the loader
    throw InputError(fmt::format(
        "--blas-lib {}: not a regular file (a FIFO, device or socket), not a shared library",
        named.string()));
  std::string base = name_from_file(path);
  std::string name = base;
  auto used = [&](const std::string& n) {
    return std::any_of(taken.begin(), taken.end(), [&](const auto& s) { return s.name == n; });
  };
  // A user library named like a discovered one gets a suffix, never replaces it silently.
  for (int i = 2; used(name); ++i) name = fmt::format("{}_{}", base, i);
  return {name, path, true, std::nullopt};
}

BlasLibrarySpec BlasLibrary::probed_spec() const {
  BlasLibrarySpec s = spec_;
  s.has_thread_setter = !thread_setter_name_.empty();
  s.bf16_gemm = gemm_bf16_symbol_;
  s.i8_gemm = gemm_s8u8s32_symbol_;
  return s;
}

BlasLibrary::~BlasLibrary() {
  // The library stays mapped (SharedLibrary never closes one): several BLAS libraries keep
  // thread pools whose exit handlers expect it until the process ends.
}

bool BlasLibrary::set_threads(int threads) const {
  if (set_int_threads_) {
    set_int_threads_(threads);
    return true;
  }
  if (set_dim_threads_) {
    set_dim_threads_(threads);
    return true;
  }
  return false;
}

std::unique_ptr<BlasLibrary> load_blas_library(const BlasLibrarySpec& spec) {
  SharedLibrary so = SharedLibrary::open(spec.path.string());
  if (!so.loaded())
    throw InputError(
        fmt::format("BLAS library {}: cannot load: {}", spec.path.string(), so.error()));
  std::unique_ptr<BlasLibrary> lib(new BlasLibrary());
  lib->spec_ = spec;
  auto symbol = [&](const char* name) { return so.address(name); };
  for (const char* required : {"cblas_sgemm", "cblas_dgemm"})
    if (!symbol(required))
      throw InputError(fmt::format("BLAS library {}: missing symbol {} (not a CBLAS library?)",
                                   spec.path.string(), required));
  // MKL's runtime library picks its threading layer at its first call: from
  // MKL_THREADING_LAYER, else Intel's OpenMP (libiomp5), a second OpenMP runtime beside this
  // process's libgomp, each keeping its own spinning pool on the same cores. Its GNU layer runs
  // MKL on the libgomp Ridgeline already uses, whatever the environment says; LP64 because
  // the prototypes here take int. Both before any other MKL call.
  if (void* layer = symbol("MKL_Set_Threading_Layer")) {
    if (void* interface = symbol("MKL_Set_Interface_Layer"))
      reinterpret_cast<int (*)(int)>(interface)(kMklInterfaceLp64);
    const int got = reinterpret_cast<int (*)(int)>(layer)(kMklThreadingGnu);
    if (got != kMklThreadingGnu)
      throw InputError(fmt::format(
          "BLAS library {}: MKL_Set_Threading_Layer(MKL_THREADING_GNU) returned {}, not the GNU "
          "OpenMP layer (libmkl_gnu_thread.so.2 missing beside it?)",
          spec.path.string(), got));
    lib->threading_ = "GNU OpenMP (MKL_Set_Threading_Layer(MKL_THREADING_GNU))";
  }
  lib->sgemm_ = reinterpret_cast<CblasSgemm>(symbol("cblas_sgemm"));
  lib->dgemm_ = reinterpret_cast<CblasDgemm>(symbol("cblas_dgemm"));
  for (const char* name : kBf16GemmSymbols)
    if (void* f = symbol(name)) {
      lib->gemm_bf16_ = reinterpret_cast<CblasGemmBf16>(f);
      lib->gemm_bf16_symbol_ = name;
      break;
    }
  for (const char* name : kI8GemmSymbols)
    if (void* f = symbol(name)) {
      lib->gemm_s8u8s32_ = reinterpret_cast<CblasGemmS8u8s32>(f);
      lib->gemm_s8u8s32_symbol_ = name;
      break;
    }
  for (const char* setter :
       {"openblas_set_num_threads", "MKL_Set_Num_Threads", "flexiblas_set_num_threads"})
    if (void* f = symbol(setter)) {
      lib->set_int_threads_ = reinterpret_cast<void (*)(int)>(f);
      lib->thread_setter_name_ = setter;
      break;
    }
  if (!lib->set_int_threads_)
    if (void* f = symbol("bli_thread_set_num_threads")) {
      lib->set_dim_threads_ = reinterpret_cast<void (*)(std::int64_t)>(f);
      lib->thread_setter_name_ = "bli_thread_set_num_threads";
    }
  if (void* f = symbol("openblas_get_config"))
    lib->version_ = reinterpret_cast<const char* (*)()>(f)();
  else if (void* g = symbol("bli_info_get_version_str"))
    lib->version_ = std::string("BLIS ") + reinterpret_cast<const char* (*)()>(g)();
  else if (void* h = symbol("MKL_Get_Version_String")) {
    char text[256] = {};
    reinterpret_cast<void (*)(char*, int)>(h)(text, sizeof text - 1);
    lib->version_ = text;
  }
  // BLIS 0.9 picks a sub-configuration by CPUID once per process; on a CPU it does not
  // know (Zen 5) that is "generic", about a sixth of the AVX-512 kernels' rate.
  if (void* f = symbol("openblas_get_corename"))
    lib->kernel_set_ = reinterpret_cast<const char* (*)()>(f)();
  else if (void* id = symbol("bli_arch_query_id"), *str = symbol("bli_arch_string"),
           *init = symbol("bli_init");
           id && str && init) {
    // Initialised first: with BLIS_ARCH_TYPE set, querying before bli_init aborts.
    reinterpret_cast<void (*)()>(init)();
    lib->kernel_set_ =
        reinterpret_cast<const char* (*)(int)>(str)(reinterpret_cast<int (*)()>(id)());
  } else if (void* v = symbol("MKL_Get_Version")) {
    // The instructions MKL dispatches to on this CPU (MKL_ENABLE_INSTRUCTIONS caps them).
    MklVersionFields fields{};
    reinterpret_cast<void (*)(MklVersionFields*)>(v)(&fields);
    if (fields.processor) lib->kernel_set_ = fields.processor;
  }
  return lib;
}

bool has_low_precision_gemm(const BlasLibrarySpec& spec, DType dtype) {
  const std::optional<std::string>& found = dtype == DType::bf16 ? spec.bf16_gemm : spec.i8_gemm;
  return found && !found->empty();
}

std::string describe_low_precision_gemm(const BlasLibrarySpec& spec, DType dtype) {
  const bool bf16 = dtype == DType::bf16;
  const std::string kind = bf16 ? "bf16" : "int8";
  const std::optional<std::string>& found = bf16 ? spec.bf16_gemm : spec.i8_gemm;
  const std::string file = spec.path.filename().string();
  if (!found) return fmt::format("{} GEMM not known: {} has not been probed", kind, file);
  if (!found->empty()) return fmt::format("{} GEMM: {}", kind, *found);
  if (bf16)
    return fmt::format("no bf16 GEMM: {} exports neither {} nor {}", file, kBf16GemmSymbols[0],
                       kBf16GemmSymbols[1]);
  return fmt::format("no int8 GEMM: {} exports no {}", file, kI8GemmSymbols[0]);
}

std::string describe_kernel_set(const std::string& version, const std::string& kernel_set) {
  if (kernel_set.empty()) return "";
  if (version.rfind("BLIS", 0) == 0 && kernel_set == "generic")
    return "generic (BLIS's portable C kernels: it did not recognise this CPU; BLIS_ARCH_TYPE "
           "set to a sub-configuration's number chooses one, in BLIS 0.9 0 = skx for "
           "AVX-512, 3 = haswell, 6 = zen3)";
  return kernel_set;
}

}  // namespace ridgeline
