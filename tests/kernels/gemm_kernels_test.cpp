// Every kernel of the catalog (the CPU ladder and the BLAS libraries installed here) on
// awkward shapes and every layout it claims, checked by the same validator the runner uses.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <iostream>

#include "../support/probed_blas.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"

namespace ridgeline {

namespace {

struct KernelCase {
  std::string backend;
  DType dtype;
  Layout layout;
  Shape shape;
  int threads;
  friend void PrintTo(const KernelCase& c, std::ostream* os) {
    *os << c.backend << " " << to_string(c.dtype) << " " << to_string(c.layout) << " "
        << fmt::format("m={},n={},k={}", c.shape.m, c.shape.n, c.shape.k)
        << " threads=" << c.threads;
  }
};

const KernelCatalog& catalog() {
  static const KernelCatalog c = KernelCatalog::with_builtin_kernels(probed_blas_libraries());
  return c;
}

// Cases a kernel claims (supports() says yes); what it refuses is checked below.
std::vector<KernelCase> all_cases() {
  // 1x1x1 and thin shapes hit every edge path; 300x200x1100 crosses the packed rung's
  // mc and kc blocks (so its accumulate path runs); 20x4200x20 crosses nc.
  const std::vector<Shape> shapes{{1, 1, 1, 1},        {37, 53, 29, 1},  {1, 4096, 1, 1},
                                  {4096, 1, 1, 1},     {1, 1, 4096, 1},  {130, 67, 300, 1},
                                  {300, 200, 1100, 1}, {20, 4200, 20, 1}};
  std::vector<KernelCase> cases;
  for (const auto& k : catalog().kernels()) {
    if (k.op != "gemm") continue;  // the other ops' kernels: rowwise_kernels_test.cpp
    auto kernel = catalog().create(k.backend);
    for (DType d : k.dtypes)
      for (Layout l : {Layout::NN, Layout::NT, Layout::TN, Layout::TT})
        for (const Shape& s : shapes)
          for (int threads : {1, 2}) {
            if (!kernel->supports(gemm_problem(s, l, d, "normal"), threads)) continue;
            if (k.backend == "cpu.naive" && s.m * s.n * s.k > 20'000'000) continue;
            cases.push_back({k.backend, d, l, s, threads});
          }
  }
  return cases;
}

// One size of a packed kernel's "blocking" note ("mc=..,kc=..,nc=..").
std::int64_t blocking_size(const std::string& blocking, const std::string& key) {
  return std::stoll(blocking.substr(blocking.find(key + "=") + key.size() + 1));
}

std::string case_name(const ::testing::TestParamInfo<KernelCase>& info) {
  const auto& c = info.param;
  std::string name = fmt::format("{}_{}_{}_{}x{}x{}_t{}", c.backend, to_string(c.dtype),
                                 to_string(c.layout), c.shape.m, c.shape.n, c.shape.k, c.threads);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

}  // namespace

class EveryKernel : public ::testing::TestWithParam<KernelCase> {};

TEST_P(EveryKernel, PassesValidationOrSaysWhyNot) {
  const KernelCase& c = GetParam();
  auto kernel = catalog().create(c.backend);
  ASSERT_TRUE(kernel);
  Problem p = gemm_problem(c.shape, c.layout, c.dtype, "normal");
  // Asked again now: support can depend on the process's state since the cases were listed
  // (oneDNN capped below AMX only before its first primitive here).
  if (const Support s = kernel->supports(p, c.threads); !s) GTEST_SKIP() << s.reason;
  Operands ops = allocate_operands(p);
  fill_pattern(ops.at("A"), "normal", 1);
  fill_pattern(ops.at("B"), "normal", 2);
  poison(ops.at("C"));
  kernel->prepare(p, ops, c.threads);
  kernel->run();
  Validation v = validate(p, ops, 3);
  EXPECT_EQ(v.disposition, Disposition::passed)
      << v.message << " (max rel err " << v.max_rel_err << ")";
  // A second run must overwrite C, not accumulate into it.
  kernel->run();
  Validation again = validate(p, ops, 4);
  EXPECT_EQ(again.disposition, Disposition::passed) << "second run: " << again.message;
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryKernel, ::testing::ValuesIn(all_cases()), case_name);

// Every kernel runs NN here, or says why not (an ISA this CPU lacks); every layout,
// dtype or thread count it refuses comes with a reason.
TEST(Catalog, EveryKernelRunsHereOrSaysWhy) {
  for (const auto& k : catalog().kernels()) {
    if (k.op != "gemm") continue;
    auto kernel = catalog().create(k.backend);
    Support nn =
        kernel->supports(gemm_problem(Shape{8, 8, 8, 1}, Layout::NN, DType::f32, "normal"), 1);
    if (!nn) {
      EXPECT_FALSE(nn.reason.empty()) << k.backend;
      std::cout << "[ SKIPPED  ] " << k.backend << ": " << nn.reason << "\n";
      continue;
    }
    for (Layout l : {Layout::NT, Layout::TN, Layout::TT})
      for (int threads : {1, 2}) {
        Support s =
            kernel->supports(gemm_problem(Shape{8, 8, 8, 1}, l, DType::f64, "normal"), threads);
        if (!s) {
          EXPECT_NE(s.reason.find(k.id()), std::string::npos) << k.backend << ": " << s.reason;
        }
      }
  }
}

// The fusion analysis pairs cpu.fused with cpu.unfused, and reports tell vendors from our
// own code: a kernel's role must agree with its backend's name.
TEST(Catalog, RolesAgreeWithTheBackendNames) {
  const KernelCatalog c = KernelCatalog::with_builtin_kernels({});
  for (const KernelInfo& k : c.kernels()) {
    if (k.backend == "cpu.fused" || k.backend == "cpu.avx2_fused" || k.backend == "cuda.fused")
      EXPECT_EQ(k.role, KernelRole::fused) << k.id();
    else if (k.backend == "cpu.unfused" || k.backend == "cpu.avx2_unfused" ||
             k.backend == "cuda.unfused")
      EXPECT_EQ(k.role, KernelRole::unfused) << k.id();
    else if (k.backend.rfind("blas.", 0) == 0 || k.backend.rfind("vendor.", 0) == 0 ||
             k.backend == "cuda.cublas" || k.backend == "cuda.cublaslt" ||
             k.backend == "cuda.cublas.ttgt" || k.backend == "cuda.cudnn" ||
             k.backend == "cpu.eigen" || k.backend == "cpu.eigen.ttgt")
      EXPECT_EQ(k.role, KernelRole::vendor) << k.id();
    else
      EXPECT_EQ(k.role, KernelRole::ladder) << k.id();
  }
}

TEST(Catalog, HoldsTheLadderAndPicksThePackedIsaByCpuid) {
  // Each architecture's packed rungs (its own ISA units alone are built).
#if defined(__x86_64__)
  for (const char* b :
       {"cpu.naive", "cpu.reordered", "cpu.tiled", "cpu.packed_avx512", "cpu.packed_avx2",
        "cpu.packed_avx512_omp", "cpu.packed_avx2_omp", "cpu.eigen"})
#else
  for (const char* b : {"cpu.naive", "cpu.reordered", "cpu.tiled", "cpu.packed_neon",
                        "cpu.packed_neon_omp", "cpu.eigen"})
#endif
    EXPECT_TRUE(catalog().find(b)) << b;
  auto best = best_packed_backend(false);
  ASSERT_TRUE(best);
  auto kernel = catalog().create(*best);
  Problem p = gemm_problem(Shape{8, 8, 8, 1}, Layout::NN, DType::f32, "normal");
  EXPECT_TRUE(kernel->supports(p, 1)) << "the chosen packed ISA must run on this CPU";
}

// The runner passes the probe's measured caches where hwloc is wrong (a VM reporting the
// host's 508 MiB L3): the packed kernel blocks for what it is given, and says so.
TEST(PackedGemm, BlocksForTheCacheSizesItIsGivenAndNamesTheirSource) {
  auto best = best_packed_backend(false);
  ASSERT_TRUE(best);
  const CacheSizes hwloc = hwloc_cache_sizes();
  const Problem p = gemm_problem(Shape{4096, 64, 512, 1}, Layout::NN, DType::f32, "normal");
  Operands ops = allocate_operands(p);
  std::vector<std::int64_t> mcs, ncs;
  for (std::int64_t l3 : {std::int64_t{16} << 20, std::int64_t{64} << 20}) {
    use_cache_sizes({48 << 10, 1 << 20, l3, 2, "L3 measured for this test"});
    auto kernel = catalog().create(*best);
    kernel->prepare(p, ops, 1);
    const auto notes = kernel->notes();
    EXPECT_EQ(notes.at("caches"), "L3 measured for this test");
    const std::string& blocking = notes.at("blocking");
    const std::int64_t mc = blocking_size(blocking, "mc");
    const std::int64_t kc = blocking_size(blocking, "kc");
    const std::int64_t nc = blocking_size(blocking, "nc");
    const std::string& name = notes.at("microkernel");  // gemm_<dtype>_<isa>_<MR>x<NR>
    const std::int64_t nr = std::stoll(name.substr(name.rfind('x') + 1));
    EXPECT_LE(kc * nr * 4, (1 << 20) / 4) << blocking << ": B's panel, up to a quarter of L2";
    EXPECT_LE(mc * kc * 4, l3 / 2 / 4) << blocking << ": A's block, a quarter of this core's L3";
    EXPECT_LE(kc * nc * 4, l3) << blocking << ": B's block streams through L3";
    mcs.push_back(mc);
    ncs.push_back(nc);
  }
  EXPECT_LT(mcs[0], mcs[1]);
  EXPECT_LT(ncs[0], ncs[1]);
  use_cache_sizes(hwloc);
  EXPECT_EQ(cache_sizes().l3, hwloc.l3);
}

// Small caches give many kc and nc steps: on several threads each B panel is packed by the
// first thread to need it, into two alternating buffers, and a block of A waits for its rows
// of C from the step before, with no barrier. Every element of C is summed in the same order
// whatever thread computes it, so three threads must agree with one bit for bit, and so must
// a second and third run of the same prepared kernel (the packing states carry over). m = 5
// leaves two of three blocks of A without rows. i8 where the rung runs it (AVX512_VNNI): its
// B panels carry their column sums behind them.
TEST(PackedGemm, ManyBlocksOnThreeThreadsAgreeWithOneBitForBit) {
  auto best = best_packed_backend(true);
  ASSERT_TRUE(best);
  const CacheSizes hwloc = hwloc_cache_sizes();
  use_cache_sizes({32 << 10, 64 << 10, 1 << 20, 2, "small caches for this test"});
  for (DType dtype : {DType::f64, DType::f32, DType::i8})
    for (std::int64_t m : {301, 5}) {
      const Problem p = gemm_problem(Shape{m, 2100, 1100, 1}, Layout::NN, dtype, "normal");
      if (dtype == DType::i8 && !catalog().create(*best)->supports(p, 3)) continue;
      std::vector<std::vector<char>> results;
      for (int threads : {1, 3}) {
        Operands ops = allocate_operands(p);
        fill_pattern(ops.at("A"), "normal", 1);
        fill_pattern(ops.at("B"), "normal", 2);
        auto kernel = catalog().create(*best);
        kernel->prepare(p, ops, threads);
        const std::string blocking = kernel->notes().at("blocking");
        EXPECT_LT(blocking_size(blocking, "kc"), 1100) << blocking;
        EXPECT_LT(blocking_size(blocking, "nc"), 2100) << blocking;
        for (int run = 0; run < (threads > 1 ? 3 : 1); ++run) {
          poison(ops.at("C"));
          kernel->run();
          const OperandBuffer& c = ops.at("C");
          const char* bytes = static_cast<const char*>(c.raw());
          results.emplace_back(bytes, bytes + c.bytes());
          EXPECT_EQ(validate(p, ops, 5).disposition, Disposition::passed)
              << threads << " threads, run " << run + 1;
        }
      }
      for (std::size_t i = 1; i < results.size(); ++i)
        EXPECT_TRUE(results[0] == results[i])
            << to_string(dtype) << " m = " << m << ", result " << i;
    }
  use_cache_sizes(hwloc);
}

TEST(Catalog, SingleThreadedKernelsRefuseThreads) {
  auto kernel = catalog().create("cpu.naive");
  Problem p = gemm_problem(Shape{8, 8, 8, 1}, Layout::NN, DType::f32, "normal");
  Support s = kernel->supports(p, 2);
  EXPECT_FALSE(s);
  EXPECT_NE(s.reason.find("single-threaded"), std::string::npos);
  p = gemm_problem(Shape{8, 8, 8, 3});
  EXPECT_FALSE(kernel->supports(p, 1));
}

// No GEMM kernel here runs a batch of products yet: each says so (check_gemm_batch), where a
// GPU's GEMMs say first that there is no GPU, a kernel for an ISA this CPU lacks (AVX-512 on
// Zen 3) says that, and gemm_bias_act (no batch) is unaffected.
TEST(Catalog, EveryGemmKernelRefusesABatchWithItsReason) {
  const Problem batched = gemm_problem(Shape{8, 8, 8, 3}, Layout::NN, DType::f32, "normal");
  const Problem single = gemm_problem(Shape{8, 8, 8, 1}, Layout::NN, DType::f32, "normal");
  int checked = 0;
  for (const auto& k : catalog().kernels()) {
    if (k.op != "gemm" || k.device != Device::cpu) continue;
    SCOPED_TRACE(k.id());
    const std::unique_ptr<Kernel> kernel = catalog().create(k.backend);
    const Support s = kernel->supports(batched, 1);
    EXPECT_FALSE(s);
    // One that cannot run here at all gives that reason first, for any problem.
    if (const Support plain = kernel->supports(single, 1); !plain) {
      EXPECT_EQ(s.reason, plain.reason);
      continue;
    }
    EXPECT_NE(s.reason.find("does not implement batched problems"), std::string::npos) << s.reason;
    ++checked;
  }
  EXPECT_GE(checked, 4);
  Problem bias;
  bias.op = "gemm_bias_act";
  bias.params = parse_params(op_definition(bias.op), "m=8,n=8,k=8/act=relu");
  EXPECT_TRUE(catalog().create("cpu.fused", "gemm_bias_act")->supports(bias, 1));
}

}  // namespace ridgeline
