// cuBLAS and cuBLASLt are loaded on first use, not linked (kernels/src/cuda/cublas_library.hpp):
// a process that links ridgeline::kernels does not pay for them until a cuBLAS kernel or
// ceiling runs. Built with CUDA only; runs on machines with or without a GPU.
#include "cuda/cublas_library.hpp"

#include <gtest/gtest.h>

#include <string>

#include "../support/text_checks.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

// Read during static initialisation, after the libraries this binary links have run their
// own initialisers and before any test: what the tests run afterwards cannot change it.
const bool cublaslt_at_start = SharedLibrary::is_loaded(cublaslt_soname());
const bool cublas_at_start = SharedLibrary::is_loaded(cublas_soname());

using test::one_line;

}  // namespace

TEST(CublasLibrary, NotLoadedWhenTheProcessStarts) {
  EXPECT_EQ(cublaslt_soname(), "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR));
  EXPECT_FALSE(cublaslt_at_start) << cublaslt_soname() << " is linked, not loaded on first use";
  EXPECT_FALSE(cublas_at_start) << cublas_soname() << " is linked, not loaded on first use";
}

TEST(CublasLibrary, TheCublasLtKernelSaysWhyItCannotRunInOneLine) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  ASSERT_NE(catalog.find("cuda.cublaslt"), nullptr);
  const bool loaded_before = SharedLibrary::is_loaded(cublaslt_soname());
  const Problem p = gemm_problem(Shape{64, 64, 64, 1}, Layout::NN, DType::bf16, "normal");
  for (const char* backend : {"cuda.cublaslt", "cuda.cublas"}) {
    const Support s = catalog.create(backend)->supports(p, 1);
    if (!gpu_probe().available()) {
      // No device: the reason says so first, and the library is not loaded to find that out.
      EXPECT_FALSE(s.ok) << backend;
      EXPECT_EQ(s.reason.rfind("no GPU: ", 0), 0u) << s.reason;
      EXPECT_TRUE(one_line(s.reason)) << s.reason;
      if (!loaded_before) {
        EXPECT_FALSE(SharedLibrary::is_loaded(cublaslt_soname())) << backend;
      }
    } else if (!s.ok) {
      EXPECT_TRUE(one_line(s.reason)) << s.reason;
      EXPECT_EQ(s.reason, cublas_status().reason) << "a GPU, so only the library can be missing";
    }
  }
}

TEST(CublasLibrary, AMissingLibraryIsNamedInTheReason) {
  CublasApi api;
  Support s = load_cublas_api(api, "libcublasLt.so.0-ridgeline-missing", cublas_soname());
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.reason.rfind("libcublasLt.so.0-ridgeline-missing: ", 0), 0u) << s.reason;
  EXPECT_NE(s.reason.find("cannot open shared object file"), std::string::npos) << s.reason;
  EXPECT_TRUE(one_line(s.reason)) << s.reason;
  EXPECT_EQ(api.cublasLtMatmul, nullptr);
}

// Loads the real libraries into this test's process (half a second): every function the
// kernels call resolves, with the types the headers give, and answers.
TEST(CublasLibrary, EveryFunctionResolvesFromTheToolkitsLibraries) {
  if (const SharedLibrary lt = SharedLibrary::open(cublaslt_soname()); !lt.loaded())
    GTEST_SKIP() << "the CUDA toolkit's libraries are not on the search path: " << lt.error();
  const Support s = cublas_status();
  ASSERT_TRUE(s.ok) << s.reason;
  const CublasApi& api = cublas();
#define RIDGELINE_EXPECT_RESOLVED(name) EXPECT_NE(api.name, nullptr) << #name;
  RIDGELINE_CUBLAS_FUNCTIONS(RIDGELINE_EXPECT_RESOLVED)
  RIDGELINE_CUBLASLT_FUNCTIONS(RIDGELINE_EXPECT_RESOLVED)
#undef RIDGELINE_EXPECT_RESOLVED
  EXPECT_NE(api.cublasGemmEx, nullptr);
  // Neither call needs a device.
  EXPECT_EQ(api.cublasLtGetVersion() / 10000, static_cast<std::size_t>(CUBLAS_VER_MAJOR));
  EXPECT_STREQ(api.cublasGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED");

  // cuBLAS present, the name given wrong: that library is the one named.
  CublasApi other;
  const Support missing = load_cublas_api(other, cublaslt_soname(), "libcublas.so.0-missing");
  EXPECT_FALSE(missing.ok);
  EXPECT_EQ(missing.reason.rfind("libcublas.so.0-missing: ", 0), 0u) << missing.reason;
}

}  // namespace ridgeline
