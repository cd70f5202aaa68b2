// gemm.vendor.onednn3: oneDNN 3 loaded at run time beside the oneDNN 2.6 Ridgeline is linked
// with (every dtype and layout is validated with the other GEMM kernels in
// gemm_kernels_test.cpp); here what is particular to it.
#include <gtest/gtest.h>

#include <filesystem>

#include "onednn3/onednn3_api.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/operand_buffer.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"

namespace ridgeline {

namespace {

Disposition run_and_validate(Kernel& kernel, const Problem& p) {
  Operands ops = allocate_operands(p);
  fill_pattern(ops.at("A"), "normal", 1);
  fill_pattern(ops.at("B"), "normal", 2);
  kernel.prepare(p, ops, 1);
  kernel.run();
  return validate(p, ops, 3).disposition;
}

}  // namespace

TEST(Onednn3Gemm, AbsentItSaysHowToInstallIt) {
  const auto catalog = KernelCatalog::with_builtin_kernels({});
  const auto kernel = catalog.create("vendor.onednn3");
  ASSERT_TRUE(kernel);
  const Support s = kernel->supports(gemm_problem({64, 64, 64, 1}, Layout::NN, DType::f32), 1);
  if (onednn3::status()) {
    EXPECT_TRUE(s) << s.reason;
  } else {
    EXPECT_NE(s.reason, "") << "a refusal without its reason";
  }
  if (!std::filesystem::exists(onednn3::kLibraryPath)) {
    EXPECT_NE(s.reason.find("scripts/install-deps --onednn"), std::string::npos) << s.reason;
  }
}

// Both releases in one process: oneDNN 3's own symbols first, so neither calls into the other.
TEST(Onednn3Gemm, RunsBesideDebiansOnednn2AndNamesItsImplementationAndUnit) {
  if (const Support s = onednn3::status(); !s) GTEST_SKIP() << s.reason;
  const auto catalog = KernelCatalog::with_builtin_kernels({});
  const Problem p = gemm_problem({96, 80, 72, 1}, Layout::NT, DType::f32);
  const auto v3 = catalog.create("vendor.onednn3");
  ASSERT_TRUE(v3->supports(p, 1));
  EXPECT_EQ(run_and_validate(*v3, p), Disposition::passed);
  const auto notes = v3->notes();
  EXPECT_EQ(notes.at("library").rfind("oneDNN 3.", 0), 0u) << notes.at("library");
  ASSERT_TRUE(notes.count("implementation"));
  EXPECT_FALSE(notes.at("implementation").empty());
  if (const auto v2 = catalog.create("vendor.onednn"); v2->supports(p, 1)) {
    EXPECT_EQ(run_and_validate(*v2, p), Disposition::passed) << "oneDNN 2.6 after oneDNN 3";
  }

  const Problem bf16 = gemm_problem({64, 64, 64, 1}, Layout::NN, DType::bf16);
  if (const Support s = v3->supports(bf16, 1); !s) GTEST_SKIP() << s.reason;
  EXPECT_EQ(run_and_validate(*v3, bf16), Disposition::passed);
  const std::string impl = v3->notes().at("implementation");
  EXPECT_EQ(v3->compute_unit(bf16),
            impl.find("amx") != std::string::npos ? ComputeUnit::matrix : ComputeUnit::vector)
      << impl;
}

}  // namespace ridgeline
