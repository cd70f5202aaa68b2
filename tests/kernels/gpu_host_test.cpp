// The GPU side as seen from a machine with or without a GPU: what the catalog holds, and
// the reasons given when a GPU kernel cannot run. Runs everywhere.
#include <gtest/gtest.h>

#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
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
    if (k.device == Device::gpu) gpu_kernels.push_back(&k);
  if (!gpu_probe().built) {
    EXPECT_TRUE(gpu_kernels.empty());
    GTEST_SKIP() << gpu_probe().reason;
  }
  for (const char* backend :
       {"cuda.simt_naive", "cuda.simt_coalesced", "cuda.simt_smem_32x32",
        "cuda.simt_regblock_128x128x8_8x8", "cuda.simt_vec4_128x128x8_8x8",
        "cuda.simt_warptile_128x128x16", "cuda.wmma_128x128x32", "cuda.cublas", "cuda.cublaslt"})
    EXPECT_NE(catalog.find(backend), nullptr) << backend;
  EXPECT_EQ(catalog.find("cuda.cublas")->dtypes.size(), 6u);
  for (const KernelInfo* k : gpu_kernels) {
    auto kernel = catalog.create(k->backend, k->op);
    ASSERT_TRUE(kernel) << k->id();
    const Problem p = example_problem(op_definition(k->op), k->dtypes.at(0));
    const Support s = kernel->supports(p, 1);
    if (!gpu_probe().available()) {
      EXPECT_FALSE(s.ok);
      EXPECT_EQ(s.reason.rfind("no GPU: ", 0), 0u) << s.reason;
    }
    // Host threads mean nothing to a GPU kernel; a request for more is refused by name.
    EXPECT_FALSE(kernel->supports(p, 2).ok) << k->backend;
  }
  // The fusion suite on the GPU: every memory-bound op has its fused kernel and its unfused
  // twin of one family, so the analysis pairs them; gemm_bias_act has cuBLASLt's epilogue.
  for (const char* op :
       {"softmax", "layernorm", "rmsnorm", "eltwise_chain", "gemm_bias_act", "attention"}) {
    const KernelInfo* fused = catalog.find("cuda.fused", op);
    const KernelInfo* unfused = catalog.find("cuda.unfused", op);
    ASSERT_TRUE(fused && unfused) << op;
    EXPECT_EQ(fused->role, KernelRole::fused) << op;
    EXPECT_EQ(unfused->role, KernelRole::unfused) << op;
    EXPECT_EQ(fused->family, unfused->family) << op;
    EXPECT_EQ(fused->device, Device::gpu) << op;
  }
  // einsum on the GPU: the copy-free cuBLAS lowering and TTGT, whose work model adds the
  // permutes' bytes exactly as the CPU's TTGT does (each permuted operand written and read
  // back), so both sit at the same point of the roofline for the same equation.
  ASSERT_TRUE(catalog.find("cuda.cublas", "einsum") && catalog.find("cuda.cublas.ttgt", "einsum"));
  Problem heads = example_problem(op_definition("einsum"), DType::f32);
  heads.params = parse_params(op_definition("einsum"),
                              R"(equation="bthr,bThr->bhtT"/extents="b=2,t=5,h=3,r=7,T=4")");
  EXPECT_EQ(catalog.create("cuda.cublas.ttgt", "einsum")->work(heads).bytes,
            catalog.create("cpu.ttgt", "einsum")->work(heads).bytes);
  EXPECT_EQ(catalog.create("cuda.cublas", "einsum")->work(heads).bytes, op_work(heads).bytes);
  ASSERT_TRUE(catalog.find("cuda.cublaslt", "gemm_bias_act"));
  EXPECT_EQ(catalog.find("cuda.cublaslt", "gemm_bias_act")->role, KernelRole::vendor);
  // Shape limits come before the device check only when the device exists; the dtype
  // check always comes first.
  const Problem f64_wmma = gemm_problem(Shape{64, 64, 64, 1}, Layout::NN, DType::f64, "normal");
  EXPECT_NE(catalog.create("cuda.wmma_128x128x32")->supports(f64_wmma, 1).reason.find("no f64"),
            std::string::npos);
}

}  // namespace ridgeline

namespace ridgeline {

namespace {
// A column-major GEMM as BLAS defines it: C(i,j) = sum_p op(A)(i,p) op(B)(p,j), X(i,j) at
// X[i + j*ld], op(X)(i,j) = X(j,i) when transposed.
void column_major_gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k,
                       const std::vector<double>& a, std::int64_t lda, const std::vector<double>& b,
                       std::int64_t ldb, std::vector<double>& c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (std::int64_t p = 0; p < k; ++p)
        acc += (ta ? a[p + i * lda] : a[i + p * lda]) * (tb ? b[j + p * ldb] : b[p + j * ldb]);
      c[i + j * ldc] = acc;
    }
}
}  // namespace

// The mapping every cuBLAS and cuBLASLt call uses, checked with a column-major GEMM on the
// host: no GPU needed to know the transposes and leading dimensions are right.
TEST(ColumnMajorView, AColumnMajorLibraryComputesTheRowMajorProduct) {
  const std::int64_t m = 5, n = 3, k = 4;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      const std::int64_t lda = ta ? m : k, ldb = tb ? k : n, ldc = n;
      std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = 1.0 + static_cast<double>(i);
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.5 - static_cast<double>(i % 7);
      std::vector<double> want(static_cast<std::size_t>(m * n)), got(want.size(), -1);
      for (std::int64_t i = 0; i < m; ++i)  // the row-major product, by definition
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t p = 0; p < k; ++p)
            want[static_cast<std::size_t>(i * ldc + j)] +=
                (ta ? a[static_cast<std::size_t>(p * lda + i)]
                    : a[static_cast<std::size_t>(i * lda + p)]) *
                (tb ? b[static_cast<std::size_t>(j * ldb + p)]
                    : b[static_cast<std::size_t>(p * ldb + j)]);
      const ColumnMajorGemm v = column_major_view(m, n, k, lda, ldb, ldc, ta, tb);
      // The views' shapes agree with what the operation needs.
      EXPECT_EQ(v.transpose_first ? v.first_cols : v.first_rows, v.m);
      EXPECT_EQ(v.transpose_second ? v.second_rows : v.second_cols, v.n);
      EXPECT_EQ(v.out_rows, v.m);
      EXPECT_EQ(v.out_cols, v.n);
      EXPECT_GE(v.ld_first, v.first_rows);
      EXPECT_GE(v.ld_second, v.second_rows);
      column_major_gemm(v.transpose_first, v.transpose_second, v.m, v.n, v.k, b, v.ld_first, a,
                        v.ld_second, got, v.ld_out);
      for (std::size_t i = 0; i < want.size(); ++i)
        EXPECT_DOUBLE_EQ(got[i], want[i]) << "ta=" << ta << " tb=" << tb << " at " << i;
    }
}

}  // namespace ridgeline
