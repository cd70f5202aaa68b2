#include "ridgeline/kernels/blas_provider.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ridgeline/core/error.hpp"

namespace ridgeline {

namespace {
BlasLibrarySpec spec_of(std::string name, std::filesystem::path path) {
  BlasLibrarySpec s;
  s.name = std::move(name);
  s.path = std::move(path);
  s.user_given = true;
  return s;
}

std::string error_loading(const BlasLibrarySpec& spec) {
  try {
    load_blas_library(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(BlasProvider, MissingFileIsAnErrorNamingThePath) {
  try {
    user_blas_library("/nonexistent/libcblas.so", {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/libcblas.so: no such file"),
              std::string::npos);
  }
}

TEST(BlasProvider, LibraryWithoutCblasNamesTheMissingSymbol) {
  // libm is on every glibc system and exports no CBLAS.
  const char* libm = "/lib/x86_64-linux-gnu/libm.so.6";
  if (!std::filesystem::exists(libm)) GTEST_SKIP() << libm << " not present";
  std::string msg = error_loading(spec_of("m", libm));
  EXPECT_NE(msg.find(libm), std::string::npos) << msg;
  EXPECT_NE(msg.find("missing symbol cblas_sgemm"), std::string::npos) << msg;
}

TEST(BlasProvider, FileThatIsNoLibraryReportsTheLoaderError) {
  auto path = std::filesystem::temp_directory_path() / "ridgeline_not_a_library.so";
  std::ofstream(path) << "not an ELF file";
  std::string msg = error_loading(spec_of("x", path));
  EXPECT_NE(msg.find(path.string() + ": cannot load"), std::string::npos) << msg;
  std::filesystem::remove(path);
}

TEST(BlasProvider, UserNamesComeFromTheFileAndStayUnique) {
  auto path = std::filesystem::temp_directory_path() / "libopenblas.so.0";
  std::ofstream(path) << "x";
  BlasLibrarySpec spec =
      user_blas_library(path, {spec_of("openblas", "/usr/lib/x/libopenblas.so.0")});
  EXPECT_EQ(spec.name, "openblas_2");
  EXPECT_TRUE(spec.user_given);
  std::filesystem::remove(path);
}

TEST(BlasProvider, DiscoveredLibrariesLoadWithTheirThreadSetters) {
  auto found = discover_blas_libraries();
  if (found.empty())
    GTEST_SKIP() << "no CBLAS library installed (scripts/install-deps installs three)";
  for (const auto& spec : found) {
    auto lib = load_blas_library(spec);
    EXPECT_TRUE(lib->sgemm() && lib->dgemm()) << spec.path;
    if (spec.name == "openblas") {
      EXPECT_EQ(lib->thread_setter(), "openblas_set_num_threads");
      EXPECT_NE(lib->version().find("OpenBLAS"), std::string::npos);
    }
    if (spec.name == "openblas") {
      // The core name it runs on this CPU is also the one its build configuration names.
      ASSERT_FALSE(lib->kernel_set().empty());
      EXPECT_NE(lib->version().find(lib->kernel_set()), std::string::npos) << lib->version();
    }
    if (spec.name == "blis") {
      EXPECT_EQ(lib->thread_setter(), "bli_thread_set_num_threads");
      EXPECT_FALSE(lib->kernel_set().empty()) << "bli_arch_string(bli_arch_query_id())";
    }
    if (spec.name == "refblas") {
      EXPECT_TRUE(lib->thread_setter().empty());
    }
  }
}

TEST(BlasProvider, KernelSetSaysWhenBlisFellBackToItsPortableKernels) {
  const std::string generic = describe_kernel_set("BLIS 0.9.0", "generic");
  EXPECT_NE(generic.find("portable C kernels"), std::string::npos) << generic;
  EXPECT_NE(generic.find("BLIS_ARCH_TYPE"), std::string::npos) << generic;
  EXPECT_EQ(describe_kernel_set("BLIS 0.9.0", "skx"), "skx");
  // OpenBLAS's own fallbacks are real kernels for an older core; it is named as it is.
  EXPECT_EQ(describe_kernel_set("OpenBLAS 0.3.21 DYNAMIC_ARCH Haswell", "Haswell"), "Haswell");
  EXPECT_EQ(describe_kernel_set("BLIS 0.9.0", ""), "");
}

}  // namespace ridgeline
