// cuDNN is loaded on first use, not linked (kernels/src/cuda/cudnn_library.hpp), and serves as
// the GPU's vendor for softmax (kernels/src/cuda/rowwise/gpu_cudnn.cpp). Built with CUDA only; runs
// on machines with or without a GPU or cuDNN.
#include "cuda/cudnn_library.hpp"

#include <gtest/gtest.h>

#include <string>

#include "../support/text_checks.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

const bool cudnn_at_start = SharedLibrary::is_loaded(cudnn_soname());

using test::one_line;

}  // namespace

TEST(CudnnLibrary, NotLoadedWhenTheProcessStarts) {
  EXPECT_EQ(cudnn_soname(), "libcudnn.so." + std::to_string(CUDNN_MAJOR));
  EXPECT_FALSE(cudnn_at_start) << cudnn_soname() << " is linked, not loaded on first use";
}

// A vendor of its own family: the GPU fusion suite's softmax rows take it beside the own
// fused and unfused kernels (runner/src/gpu_fusion_suite.cpp) without naming it.
TEST(CudnnLibrary, TheSoftmaxVendorIsCatalogedAndSaysWhyItCannotRun) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  const KernelInfo* k = catalog.find("cuda.cudnn", "softmax");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->role, KernelRole::vendor);
  EXPECT_EQ(k->device, Device::gpu);
  EXPECT_EQ(k->family, "cudnn");
  const bool loaded_before = SharedLibrary::is_loaded(cudnn_soname());
  Problem p = example_problem(op_definition("softmax"), DType::bf16);
  const Support s = catalog.create("cuda.cudnn", "softmax")->supports(p, 1);
  if (!gpu_probe().available()) {
    // No device: the reason says so first, and cuDNN is not loaded to find that out.
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason.rfind("no GPU: ", 0), 0u) << s.reason;
    if (!loaded_before) {
      EXPECT_FALSE(SharedLibrary::is_loaded(cudnn_soname()));
    }
  } else if (!s.ok) {
    EXPECT_TRUE(one_line(s.reason)) << s.reason;
    EXPECT_EQ(s.reason, "cuDNN is not loaded: " + cudnn_status().reason);
  }
  p.dtype = DType::f64;
  EXPECT_NE(catalog.create("cuda.cudnn", "softmax")->supports(p, 1).reason.find("no f64"),
            std::string::npos);
}

TEST(CudnnLibrary, AMissingLibraryIsNamedInTheReason) {
  CudnnApi api;
  const Support s = load_cudnn_api(api, "libcudnn.so.0-ridgeline-missing");
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.reason.rfind("libcudnn.so.0-ridgeline-missing: ", 0), 0u) << s.reason;
  EXPECT_TRUE(one_line(s.reason)) << s.reason;
  EXPECT_EQ(api.cudnnSoftmaxForward, nullptr);
}

// Loads the real library where it is on the search path: every function the kernel calls
// resolves, and the two that need no device answer.
TEST(CudnnLibrary, EveryFunctionResolvesFromTheInstalledCudnn) {
  if (const SharedLibrary lib = SharedLibrary::open(cudnn_soname()); !lib.loaded())
    GTEST_SKIP() << "cuDNN is not on the search path: " << lib.error();
  const Support s = cudnn_status();
  ASSERT_TRUE(s.ok) << s.reason;
  const CudnnApi& api = cudnn();
#define RIDGELINE_EXPECT_RESOLVED(name) EXPECT_NE(api.name, nullptr) << #name;
  RIDGELINE_CUDNN_FUNCTIONS(RIDGELINE_EXPECT_RESOLVED)
#undef RIDGELINE_EXPECT_RESOLVED
  EXPECT_EQ(api.cudnnGetVersion() / 10000, static_cast<std::size_t>(CUDNN_MAJOR));
  EXPECT_STREQ(api.cudnnGetErrorString(CUDNN_STATUS_SUCCESS), "CUDNN_STATUS_SUCCESS");
}

}  // namespace ridgeline
