// The GPU side as seen from a machine with or without a GPU: what the catalog holds, and
// the reasons given when a GPU kernel cannot run. Runs everywhere.
#include <gtest/gtest.h>

#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

TEST(GpuRotation, EnoughCopiesToSpanThreeL2sWithinTheBudget) {
  constexpr std::int64_t MiB = 1 << 20;
  EXPECT_EQ(rotation_slots(600 * MiB, 50 * MiB, 80000 * MiB), 1);  // one set is larger
  EXPECT_EQ(rotation_slots(48 * MiB, 50 * MiB, 80000 * MiB), 4);   // ceil(150 / 48)
  EXPECT_EQ(rotation_slots(50 * MiB, 50 * MiB, 80000 * MiB), 3);
  EXPECT_EQ(rotation_slots(1024, 50 * MiB, 80000 * MiB), 1024);  // capped
  EXPECT_EQ(rotation_slots(48 * MiB, 50 * MiB, 100 * MiB), 2);   // memory bounds it
  EXPECT_EQ(rotation_slots(48 * MiB, 50 * MiB, 10 * MiB), 1);    // at least one
  EXPECT_EQ(rotation_slots(0, 50 * MiB, 10 * MiB), 1);
}

TEST(GpuProbe, NoDeviceComesWithTheReason) {
  const GpuProbe& gpu = gpu_probe();
  if (gpu.available()) GTEST_SKIP() << "this machine has a GPU: " << gpu.devices[0].name;
  ASSERT_FALSE(gpu.reason.empty());
  if (gpu.built)
    EXPECT_NE(gpu.reason.find("cudaGetDeviceCount"), std::string::npos) << gpu.reason;
  else
    EXPECT_NE(gpu.reason.find("RIDGELINE_WITH_CUDA"), std::string::npos) << gpu.reason;
}

TEST(GpuKernels, CatalogedWhenBuiltAndSayWhyTheyCannotRun) {
  const KernelCatalog catalog = KernelCatalog::with_builtin_kernels({});
  std::vector<const KernelInfo*> gpu_kernels;
  for (const auto& k : catalog.kernels())
    if (k.device == "gpu") gpu_kernels.push_back(&k);
  if (!gpu_probe().built) {
    EXPECT_TRUE(gpu_kernels.empty());
    GTEST_SKIP() << gpu_probe().reason;
  }
  for (const char* backend : {"cuda.simt_naive", "cuda.simt_coalesced", "cuda.simt_smem_32x32",
                              "cuda.simt_regblock_128x128x8_8x8", "cuda.simt_vec4_128x128x8_8x8",
                              "cuda.wmma_128x128x32", "cuda.cublas", "cuda.cublaslt"})
    EXPECT_NE(catalog.find(backend), nullptr) << backend;
  EXPECT_EQ(catalog.find("cuda.cublas")->dtypes.size(), 6u);
  for (const KernelInfo* k : gpu_kernels) {
    auto kernel = catalog.create(k->backend);
    const Problem p{"gemm", {64, 64, 64, 1}, Layout::NN, k->dtypes.at(0), "normal"};
    const Support s = kernel->supports(p, 1);
    if (!gpu_probe().available()) {
      EXPECT_FALSE(s.ok);
      EXPECT_EQ(s.reason.rfind("no GPU: ", 0), 0u) << s.reason;
    }
    // Host threads mean nothing to a GPU kernel; a request for more is refused by name.
    EXPECT_FALSE(kernel->supports(p, 2).ok) << k->backend;
  }
  // Shape limits come before the device check only when the device exists; the dtype
  // check always comes first.
  const Problem f64_wmma{"gemm", {64, 64, 64, 1}, Layout::NN, DType::f64, "normal"};
  EXPECT_NE(catalog.create("cuda.wmma_128x128x32")->supports(f64_wmma, 1).reason.find("no f64"),
            std::string::npos);
}

}  // namespace ridgeline
