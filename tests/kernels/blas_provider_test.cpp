#include "ridgeline/kernels/blas_provider.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"

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
#if defined(__x86_64__)
  const char* libm = "/lib/x86_64-linux-gnu/libm.so.6";
#else
  const char* libm = "/lib/aarch64-linux-gnu/libm.so.6";
#endif
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

TEST(BlasProvider, DebiansOpenblasHasNoBf16OrInt8GemmAndItsKernelSaysWhichSymbols) {
  const auto found = discover_blas_libraries();
  const auto openblas =
      std::find_if(found.begin(), found.end(), [](const auto& s) { return s.name == "openblas"; });
  if (openblas == found.end())
    GTEST_SKIP() << "no OpenBLAS here (scripts/install-deps installs it)";
  const BlasLibrarySpec probed = load_blas_library(*openblas)->probed_spec();
  ASSERT_TRUE(probed.bf16_gemm && probed.i8_gemm);
  if (!probed.bf16_gemm->empty()) GTEST_SKIP() << "this OpenBLAS has " << *probed.bf16_gemm;
  EXPECT_EQ(*probed.i8_gemm, "");
  const auto kernel = make_blas_gemm(probed);
  EXPECT_EQ(kernel->info().dtypes, (std::vector<DType>{DType::f32, DType::f64}));
  const std::string file = openblas->path.filename().string();
  EXPECT_EQ(kernel->supports(gemm_problem({64, 64, 64, 1}, Layout::NN, DType::bf16), 1).reason,
            "gemm.blas.openblas: no bf16 GEMM: " + file +
                " exports neither cblas_gemm_bf16bf16f32 nor cblas_sbgemm");
  EXPECT_EQ(kernel->supports(gemm_problem({64, 64, 64, 1}, Layout::NN, DType::i8), 1).reason,
            "gemm.blas.openblas: no int8 GEMM: " + file + " exports no cblas_gemm_s8u8s32");
  EXPECT_TRUE(kernel->supports(gemm_problem({64, 64, 64, 1}, Layout::NN, DType::f32), 1));
}

TEST(BlasProvider, Bf16AndInt8AreDeclaredOnlyWhereAProbeFoundTheirEntryPoints) {
  BlasLibrarySpec spec = spec_of("vendor", "/opt/v/libvendor.so.1");
  const Problem bf16 = gemm_problem({8, 8, 8, 1}, Layout::NT, DType::bf16);
  // Not probed: nothing is claimed, and the reason says what would tell.
  EXPECT_EQ(make_blas_gemm(spec)->info().dtypes, (std::vector<DType>{DType::f32, DType::f64}));
  EXPECT_NE(make_blas_gemm(spec)->supports(bf16, 1).reason.find("not been probed"),
            std::string::npos);
  spec.bf16_gemm = "cblas_sbgemm";
  spec.i8_gemm = "";
  const auto kernel = make_blas_gemm(spec);
  EXPECT_EQ(kernel->info().dtypes, (std::vector<DType>{DType::f32, DType::f64, DType::bf16}));
  EXPECT_TRUE(kernel->supports(bf16, 1));
  EXPECT_NE(kernel->info().description.find("cblas_sbgemm"), std::string::npos);
  EXPECT_EQ(describe_low_precision_gemm(spec, DType::bf16), "bf16 GEMM: cblas_sbgemm");
  EXPECT_EQ(describe_low_precision_gemm(spec, DType::i8),
            "no int8 GEMM: libvendor.so.1 exports no cblas_gemm_s8u8s32");
}

// MKL from PyPI where scripts/install-deps --mkl put it: found, run on GNU OpenMP (never a
// second OpenMP runtime), with its bf16 and int8 GEMMs.
TEST(BlasProvider, ProjectMklIsDiscoveredOnGnuOpenmpWithItsBf16AndInt8Gemms) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "MKL is built for x86-64 alone";
#endif
  if (!std::filesystem::exists(kProjectMklPath))
    GTEST_SKIP() << "MKL is not installed: " << kProjectMklPath
                 << " missing; scripts/install-deps --mkl installs it";
  // Intel's OpenMP is what MKL would bring. clang's libomp (the asan and tsan builds' own
  // OpenMP) answers to that name too (Debian links libiomp5.so to it): what counts is that
  // loading and running MKL adds none.
  const bool iomp_before = SharedLibrary::is_loaded("libiomp5.so");
  const auto found = discover_blas_libraries();
  const auto mkl =
      std::find_if(found.begin(), found.end(), [](const auto& s) { return s.name == "mkl"; });
  ASSERT_NE(mkl, found.end());
  EXPECT_EQ(mkl->path, kProjectMklPath);
  const auto lib = load_blas_library(*mkl);
  EXPECT_NE(lib->version().find("Math Kernel Library"), std::string::npos) << lib->version();
  EXPECT_EQ(lib->thread_setter(), "MKL_Set_Num_Threads");
  EXPECT_NE(lib->threading().find("MKL_THREADING_GNU"), std::string::npos);
  EXPECT_FALSE(lib->kernel_set().empty()) << "MKL_Get_Version's Processor";
  EXPECT_EQ(lib->gemm_bf16_symbol(), "cblas_gemm_bf16bf16f32");
  EXPECT_EQ(lib->gemm_s8u8s32_symbol(), "cblas_gemm_s8u8s32");
  ASSERT_TRUE(lib->set_threads(2));
  // Its parts were found beside it (loaded by its own path), on this process's libgomp.
  const float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1};
  float c[4] = {};
  lib->sgemm()(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
  EXPECT_EQ(std::vector<float>(c, c + 4), std::vector<float>(a, a + 4));
  EXPECT_TRUE(SharedLibrary::is_loaded("libmkl_gnu_thread.so.2"));
  EXPECT_EQ(SharedLibrary::is_loaded("libiomp5.so"), iomp_before);
  // A second load in the same process (each kernel loads its library) keeps the layer.
  EXPECT_NO_THROW(load_blas_library(*mkl));
}

// MKL's bf16 and int8 GEMMs are placed under the matrix engine's roof where MKL says it
// dispatches to AMX here (inferred, and the notes say so); its f32 under the vector units'.
TEST(BlasProvider, MklsLowPrecisionGemmsArePlacedOnAmxWhereItDispatchesThere) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "MKL is built for x86-64 alone";
#endif
  if (!std::filesystem::exists(kProjectMklPath))
    GTEST_SKIP() << "MKL is not installed: " << kProjectMklPath
                 << " missing; scripts/install-deps --mkl installs it";
  BlasLibrarySpec mkl = spec_of("mkl", kProjectMklPath);
  const auto lib = load_blas_library(mkl);
  const bool amx = lib->kernel_set().find("AMX") != std::string::npos;
  const auto kernel = make_blas_gemm(lib->probed_spec());
  for (DType dtype : {DType::f32, DType::bf16, DType::i8}) {
    const Problem p = gemm_problem({32, 32, 32, 1}, Layout::NN, dtype);
    Operands ops = allocate_operands(p);
    kernel->prepare(p, ops, 1);
    const bool matrix = amx && dtype != DType::f32;
    EXPECT_EQ(kernel->compute_unit(p), matrix ? ComputeUnit::matrix : ComputeUnit::vector)
        << to_string(dtype) << " with MKL's processor: " << lib->kernel_set();
    EXPECT_EQ(kernel->notes().count("compute_unit"), matrix ? 1u : 0u) << to_string(dtype);
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
