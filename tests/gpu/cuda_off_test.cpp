// The stubs a build without CUDA uses, compiled into this test in every build (so they
// cannot rot where CUDA is on): each GPU feature reports itself off, naming the option.
#include <gtest/gtest.h>

#include "ridgeline/collectors/cupti.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

TEST(CudaOff, TheGpuProbeNamesTheOptionAndNothingIsAdded) {
  const GpuProbe& gpu = gpu_probe();
  EXPECT_FALSE(gpu.built);
  EXPECT_FALSE(gpu.available());
  EXPECT_NE(gpu.reason.find("built without CUDA"), std::string::npos) << gpu.reason;
  EXPECT_NE(gpu.reason.find("RIDGELINE_WITH_CUDA"), std::string::npos) << gpu.reason;
  EXPECT_TRUE(measure_gpu_ceilings([](const std::string&) { return true; },
                                   [](const std::string&) {}, 0.1, 1)
                  .empty());
}

TEST(CudaOff, TheCuptiCollectorSaysWhy) {
  auto c = make_cupti_collector({});
  EXPECT_EQ(c->name(), "cupti");
  const Availability a = c->probe();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("RIDGELINE_WITH_CUDA"), std::string::npos) << a.reason;
  c->start();
  c->stop();
  EXPECT_TRUE(c->read().empty());
  EXPECT_FALSE(check_cupti_config("GH100", cupti_metric_names()).ok);
}

}  // namespace ridgeline
