// oneDNN as the catalog's vendor kernels (vendor.onednn): created and run as the runner
// runs them and checked by validate() against the op's own reference. Built without
// oneDNN every kernel must say why; built with it, nothing may skip.
#include <gtest/gtest.h>

#include "../support/op_cases.hpp"
#include "onednn/onednn_ops.hpp"
#include "onednn_test_support.hpp"
#include "ridgeline/kernels/cpu_features.hpp"

#ifndef RIDGELINE_ONEDNN_ENABLED
#error "RIDGELINE_ONEDNN_ENABLED (0 or 1) comes from tests/CMakeLists.txt"
#endif

namespace ridgeline {
namespace {

using test::builtin_catalog;
using test::make_problem;

using ops::onednn_unavailable_reason;  // REQUIRE_ONEDNN calls it unqualified

TEST(OnednnKernels, AreVendorKernelsOfTheFusionOps) {
  for (const char* op : {"softmax", "layernorm", "gemm_bias_act", "attention"}) {
    const KernelInfo* info = builtin_catalog().find("vendor.onednn", op);
    ASSERT_TRUE(info) << op;
    EXPECT_EQ(info->role, KernelRole::vendor);
    EXPECT_TRUE(info->threaded);
  }
  EXPECT_FALSE(builtin_catalog().find("vendor.onednn", "eltwise_chain"));
  // oneDNN 2.6's layer_normalization always subtracts the mean: no RMSNorm to offer, so no
  // entry that could only refuse (docs/onednn.md says so).
  EXPECT_FALSE(builtin_catalog().find("vendor.onednn", "rmsnorm"));
}

TEST(OnednnKernels, AttentionRecordsTheTrafficOfItsChainTheOthersTheirOperands) {
  const Problem attention = make_problem("attention", "heads=2,seq=64,head_dim=32");
  EXPECT_EQ(builtin_catalog().create("vendor.onednn", "attention")->work(attention),
            op_unfused_work(attention));
  const Problem softmax = make_problem("softmax", "rows=4,cols=4");
  EXPECT_EQ(builtin_catalog().create("vendor.onednn", "softmax")->work(softmax), op_work(softmax));
}

TEST(OnednnKernels, WithoutOnednnEveryKernelSaysWhy) {
  if (RIDGELINE_ONEDNN_ENABLED) GTEST_SKIP() << "this build has oneDNN";
  auto kernel = builtin_catalog().create("vendor.onednn", "softmax");
  const Support s = kernel->supports(make_problem("softmax", "rows=4,cols=4"), 1);
  EXPECT_FALSE(s);
  EXPECT_NE(s.reason.find("oneDNN is not built in"), std::string::npos) << s.reason;
}

TEST(OnednnKernels, SoftmaxAndLayernormPassTheOpsReferenceOnAwkwardShapes) {
  REQUIRE_ONEDNN();
  for (const char* op : {"softmax", "layernorm"})
    for (const char* params : {"rows=1,cols=1", "rows=3,cols=17", "rows=37,cols=4099"})
      for (int threads : {1, 2}) {
        auto kernel = builtin_catalog().create("vendor.onednn", op);
        const Problem p = make_problem(op, params);
        ASSERT_TRUE(kernel->supports(p, threads)) << kernel->supports(p, threads).reason;
        const Validation v = test::run_and_validate(*kernel, p, threads);
        EXPECT_EQ(v.disposition, Disposition::passed)
            << op << " " << params << " threads=" << threads << ": " << v.message;
        EXPECT_NE(kernel->notes().at("implementation"), "");
      }
}

TEST(OnednnKernels, GemmBiasActPassesTheOpsReferenceOnAwkwardShapes) {
  REQUIRE_ONEDNN();
  for (const char* params :
       {"m=1,n=1,k=1/act=gelu_tanh", "m=37,n=53,k=19/act=relu", "m=64,n=100,k=300/act=gelu_tanh"})
    for (int threads : {1, 2}) {
      auto kernel = builtin_catalog().create("vendor.onednn", "gemm_bias_act");
      const Problem p = make_problem("gemm_bias_act", params);
      ASSERT_TRUE(kernel->supports(p, threads)) << kernel->supports(p, threads).reason;
      const Validation v = test::run_and_validate(*kernel, p, threads);
      EXPECT_EQ(v.disposition, Disposition::passed)
          << params << " threads=" << threads << ": " << v.message;
    }
}

// gemm.vendor.onednn on every dtype it declares, and its twin capped below AMX: the cap holds
// only in a process whose oneDNN has chosen nothing yet; where oneDNN has run, the capped row
// refuses with the reason rather than run on the tiles under its name.
TEST(OnednnKernels, GemmRunsEachDtypeAndItsCappedTwinRefusesAfterOnednnRan) {
  REQUIRE_ONEDNN();
  const Problem p = make_problem("gemm", "m=37,n=53,k=29/layout=TN");
  for (DType dtype : {DType::f32, DType::bf16, DType::i8}) {
    Problem typed = p;
    typed.dtype = dtype;
    auto kernel = builtin_catalog().create("vendor.onednn", "gemm");
    const Support s = kernel->supports(typed, 1);
    if (!s) {
      EXPECT_NE(s.reason.find("AVX-512"), std::string::npos) << s.reason;
      continue;
    }
    const Validation v = test::run_and_validate(*kernel, typed, 1);
    EXPECT_EQ(v.disposition, Disposition::passed) << to_string(dtype) << ": " << v.message;
  }
  Problem bf16 = p;
  bf16.dtype = DType::bf16;
  auto capped = builtin_catalog().create("vendor.onednn_avx512", "gemm");
  const Support refused = capped->supports(bf16, 1);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.reason.find("process of its own"), std::string::npos) << refused.reason;
}

TEST(OnednnKernels, TheCappedGemmRunsBelowAmxInAProcessOfItsOwn) {
  REQUIRE_ONEDNN();
  if (!cpu_features().has_avx512())
    GTEST_SKIP() << "oneDNN 2.6 runs a bf16 matmul only on AVX-512, which this CPU lacks";
  Problem bf16 = make_problem("gemm", "m=37,n=53,k=29/layout=TN");
  bf16.dtype = DType::bf16;
  // "threadsafe": the child runs this test alone from the start, in a fresh process, so
  // nothing before the statement has touched oneDNN there.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        auto k = builtin_catalog().create("vendor.onednn_avx512", "gemm");
        if (!k->supports(bf16, 1)) std::exit(3);
        const Validation v = test::run_and_validate(*k, bf16, 1);
        const std::string impl = k->notes().at("implementation");
        std::fprintf(stderr, "capped: %s\n", impl.c_str());
        if (v.disposition != Disposition::passed || impl.find("amx") != std::string::npos)
          std::exit(4);
        // and now the uncapped row refuses in this process
        std::exit(builtin_catalog().create("vendor.onednn", "gemm")->supports(bf16, 1) ? 5 : 0);
      },
      ::testing::ExitedWithCode(0), "capped: ");
}

TEST(OnednnKernels, AttentionWhoseScoresWouldNotFitIsRefusedBeforeAnythingIsAllocated) {
  REQUIRE_ONEDNN();
  auto kernel = builtin_catalog().create("vendor.onednn", "attention");
  // 64 heads of 2^20 x 2^20 scores: 256 TiB.
  const Support s =
      kernel->supports(make_problem("attention", "heads=64,seq=1048576,head_dim=64"), 1);
  EXPECT_FALSE(s);
  EXPECT_NE(s.reason.find("score tensor"), std::string::npos) << s.reason;
  EXPECT_TRUE(kernel->supports(make_problem("attention", "heads=2,seq=64,head_dim=32"), 1));
}

}  // namespace
}  // namespace ridgeline
