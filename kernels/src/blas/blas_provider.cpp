#include "ridgeline/kernels/blas_provider.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/shared_library.hpp"

namespace ridgeline {

namespace {

struct KnownLibrary {
  const char* name;
  std::vector<const char*> paths;  // the first that exists is used
};

// Where Debian/Ubuntu and Fedora put the CBLAS libraries we know. Each entry is one
// implementation; the threading variant is picked by path order.
const std::vector<KnownLibrary>& known_libraries() {
  static const std::vector<KnownLibrary> known = {
      {"openblas",
       {"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
        "/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0",
        "/usr/lib/x86_64-linux-gnu/libopenblas.so.0", "/usr/lib64/libopenblas.so.0"}},
      {"blis",
       {"/usr/lib/x86_64-linux-gnu/blis-pthread/libblis.so.4",
        "/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4",
        "/usr/lib/x86_64-linux-gnu/libblis.so.4", "/usr/lib64/libblis.so.4"}},
      {"refblas", {"/usr/lib/x86_64-linux-gnu/blas/libblas.so.3", "/usr/lib64/libcblas.so.3"}},
      {"mkl",
       {"/usr/lib/x86_64-linux-gnu/libmkl_rt.so",
        "/opt/intel/oneapi/mkl/latest/lib/libmkl_rt.so.2"}},
  };
  return known;
}

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
    for (const char* path : lib.paths) {
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
  lib->sgemm_ = reinterpret_cast<CblasSgemm>(symbol("cblas_sgemm"));
  lib->dgemm_ = reinterpret_cast<CblasDgemm>(symbol("cblas_dgemm"));
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
  }
  return lib;
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
